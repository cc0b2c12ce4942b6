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

    /**
     * Runs the gateway; a start that fails ends the process with status 1 (Spring Boot has logged why). Without this
     * the JVM stayed up after a failed start, held by threads the MCP server had already started (its session
     * sweeper, Reactor's schedulers), and an orchestrator saw a live container that never became ready.
     */
    public static void main(String[] args) {
        try {
            builder().run(args);
        } catch (RuntimeException | Error e) {
            System.exit(1);
        }
    }
}
