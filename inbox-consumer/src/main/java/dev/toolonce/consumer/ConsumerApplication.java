package dev.toolonce.consumer;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The agent side's result consumer: applies result events to agent steps, idempotently. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ConsumerApplication {

    /**
     * A builder preconfigured for the consumer: a config name of its own (several ToolOnce apps share one classpath
     * in the system tests), then Spring's standard name, so that an application.yml overrides the defaults as usual.
     *
     * @return a new builder; never null
     */
    public static SpringApplicationBuilder builder() {
        return new SpringApplicationBuilder(ConsumerApplication.class)
                .properties("spring.config.name=toolonce-consumer,application");
    }

    public static void main(String[] args) {
        builder().run(args);
    }
}
