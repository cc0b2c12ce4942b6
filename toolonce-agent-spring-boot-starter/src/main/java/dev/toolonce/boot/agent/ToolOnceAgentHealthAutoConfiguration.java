package dev.toolonce.boot.agent;

import dev.toolonce.agent.results.ResultListener;
import dev.toolonce.jdbc.DatabaseProbe;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * Health indicators of the result consumer, for applications with Spring Boot's health support on the classpath
 * (actuator): {@code agentDatabase} — the agent's database answers {@code SELECT 1} — and {@code resultListener} —
 * the results listener container runs. An application puts them in its readiness group
 * ({@code management.endpoint.health.group.readiness.include}; inbox-consumer does, docs/operations.md §3). Only
 * present while this application consumes results ({@code toolonce.agent.consumer}, the default); each backs off
 * when the application defines a bean of the same name.
 */
@AutoConfiguration(after = ToolOnceAgentAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
@ConditionalOnBean(ResultListener.class)
public class ToolOnceAgentHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "agentDatabaseHealthIndicator")
    HealthIndicator agentDatabaseHealthIndicator(DatabaseProbe database) {
        return () -> database.getAsBoolean() ? Health.up().build()
                : Health.down().withDetail("reason", "the agent database does not answer").build();
    }

    @Bean
    @ConditionalOnMissingBean(name = "resultListenerHealthIndicator")
    HealthIndicator resultListenerHealthIndicator(KafkaListenerEndpointRegistry listeners) {
        return () -> {
            MessageListenerContainer results = listeners.getListenerContainer(ResultListener.LISTENER_ID);
            if (results == null) {
                return Health.down().withDetail("reason", "no listener container '" + ResultListener.LISTENER_ID
                        + "' is registered").build();
            }
            return results.isRunning() ? Health.up().withDetail("container", ResultListener.LISTENER_ID).build()
                    : Health.down().withDetail("container", ResultListener.LISTENER_ID)
                            .withDetail("reason", "the results listener container is not running").build();
        };
    }
}
