package dev.toolonce.agent;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The agent side's result consumer: applies result events to agent steps, idempotently. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ConsumerApplication {

    public static void main(String[] args) {
        // A config name of its own (several ToolOnce apps share one classpath in the system tests), then
        // Spring's standard name, so that an application.yml overrides the defaults as usual.
        new SpringApplicationBuilder(ConsumerApplication.class)
                .properties("spring.config.name=toolonce-consumer,application")
                .run(args);
    }
}
