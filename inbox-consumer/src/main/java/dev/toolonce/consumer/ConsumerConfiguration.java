package dev.toolonce.consumer;

import dev.toolonce.agent.results.ResultListener;
import dev.toolonce.security.web.Readiness;
import java.util.Map;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.ResponseEntity;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The thin runnable on the agent library: the result consumer, the task engine and {@code /tasks} all come from
 * {@code toolonce-agent-spring-boot-starter} (configured from {@code toolonce.agent.*}, which
 * {@code toolonce-consumer.yml} maps from the older {@code toolonce.consumer.*} keys), and so do its health
 * indicators and meters (docs/operations.md §3). This adds {@code /ready} and {@code /consumer/stats}.
 */
@Configuration(proxyBeanMethods = false)
public class ConsumerConfiguration {

    /** Readiness and counters. */
    @RestController
    static class ConsumerController {
        private final ResultListener listener;
        private final HealthEndpoint health;

        ConsumerController(ResultListener listener, HealthEndpoint health) {
            this.listener = listener;
            this.health = health;
        }

        /** The readiness group (the database answers, the results listener runs): 200, or 503 naming what is wrong. */
        @GetMapping("/ready")
        ResponseEntity<Map<String, Object>> ready() {
            return Readiness.of(health, Map.of());
        }

        /** The {@code toolonce.agent.results} counters by outcome, since start-up. */
        @GetMapping("/consumer/stats")
        @PreAuthorize("hasRole('VIEWER')")
        Map<String, Long> stats() {
            return listener.stats();
        }
    }
}
