package dev.toolonce.executor.web;

import dev.toolonce.executor.execution.Dispatcher;
import dev.toolonce.jdbc.DatabaseProbe;
import dev.toolonce.messaging.ConsumerContainers;
import java.time.Duration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;

/**
 * The executor's health for {@code /actuator/health} and its Kubernetes-style groups
 * ({@code /actuator/health/readiness}, {@code /actuator/health/liveness}; see toolonce-executor.yml): the same
 * checks as {@code /ready}, one indicator each. Readiness needs all of them; liveness only asks whether the
 * dispatch loop is alive, because a database or broker outage is not cured by a restart.
 */
@Configuration(proxyBeanMethods = false)
public class ExecutorHealth {
    /** A dispatch round waits at most the idle poll or one claim statement; far longer means it is stuck. */
    static final Duration DISPATCH_SILENCE = Duration.ofSeconds(30);

    @Bean
    HealthIndicator ledgerDatabaseHealthIndicator(DatabaseProbe database) {
        return () -> database.getAsBoolean() ? Health.up().build()
                : Health.down().withDetail("reason", "the ledger database does not answer").build();
    }

    @Bean
    HealthIndicator listenersHealthIndicator(KafkaListenerEndpointRegistry listeners) {
        return () -> ConsumerContainers.allRunning(listeners) ? Health.up().build()
                : Health.down().withDetail("reason", "a Kafka listener container is not running").build();
    }

    @Bean
    HealthIndicator dispatcherHealthIndicator(Dispatcher dispatcher) {
        return () -> dispatcher.healthy(DISPATCH_SILENCE) ? Health.up().build()
                : Health.down().withDetail("reason", "the dispatch loop is failing or stuck").build();
    }

    @Bean
    HealthIndicator dispatchLoopHealthIndicator(Dispatcher dispatcher) {
        return () -> dispatcher.alive(DISPATCH_SILENCE) ? Health.up().build()
                : Health.down().withDetail("reason", "the dispatch loop has stopped or is stuck").build();
    }
}
