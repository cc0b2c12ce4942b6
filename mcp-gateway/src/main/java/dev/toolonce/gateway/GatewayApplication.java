package dev.toolonce.gateway;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The MCP gateway (docs/agent-calls.md §6): the executor's catalogue as MCP tools over Streamable HTTP. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class GatewayApplication {

    /** A builder with a config name of its own (several ToolOnce apps share one classpath in the system tests). */
    public static SpringApplicationBuilder builder() {
        return new SpringApplicationBuilder(GatewayApplication.class)
                .properties("spring.config.name=toolonce-gateway,application");
    }

    public static void main(String[] args) {
        builder().run(args);
    }
}
