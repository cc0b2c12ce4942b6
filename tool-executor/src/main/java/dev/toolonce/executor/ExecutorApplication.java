package dev.toolonce.executor;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The tool executor: intake of intents, claims, tool calls and completions (docs/protocol.md §5–§9). */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ExecutorApplication {

    public static void main(String[] args) {
        // A config name of its own: several ToolOnce apps share one classpath in the system tests.
        new SpringApplicationBuilder(ExecutorApplication.class)
                .properties("spring.config.name=toolonce-executor")
                .run(args);
    }
}
