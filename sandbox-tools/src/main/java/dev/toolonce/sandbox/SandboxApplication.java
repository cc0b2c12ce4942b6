package dev.toolonce.sandbox;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * The sandbox tools: a stand-in for real providers (payments, tickets, email, counter) that
 * records every side effect it performs in its own PostgreSQL schema, the ground truth for
 * the duplicate side-effect rate. HTTP is served by the JDK's {@code HttpServer}, not by a
 * servlet container, so that a response can really be dropped after the effect was applied.
 */
@SpringBootApplication
@EnableConfigurationProperties(SandboxProperties.class)
public class SandboxApplication {

    /** Name of the configuration file ({@code toolonce-sandbox.yml}). */
    public static final String CONFIG_NAME = "toolonce-sandbox";

    /**
     * A builder preconfigured for the sandbox. The config name is set here rather than left at
     * {@code application}, because several ToolOnce apps may share one classpath in tests.
     * Callers that override settings should pass them as command-line arguments
     * ({@code --spring.datasource.url=...}): default properties rank below the config file.
     *
     * @return a new builder; never null
     */
    public static SpringApplicationBuilder builder() {
        return new SpringApplicationBuilder(SandboxApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.config.name=" + CONFIG_NAME);
    }

    public static void main(String[] args) {
        builder().run(args);
    }
}
