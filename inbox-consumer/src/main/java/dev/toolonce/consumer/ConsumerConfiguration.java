package dev.toolonce.agent;

import dev.toolonce.agent.results.ResultListener;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
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
        private final Map<String, HealthIndicator> checks = new LinkedHashMap<>();

        /** The checks are the starter's readiness indicators, under the names {@code /ready} has always reported. */
        ConsumerController(ResultListener listener,
                           @Qualifier("agentDatabaseHealthIndicator") HealthIndicator database,
                           @Qualifier("resultListenerHealthIndicator") HealthIndicator listeners) {
            this.listener = listener;
            checks.put("database", database);
            checks.put("listeners", listeners);
        }

        /** 200 while the database answers and the results listener container runs; 503 naming what is wrong. */
        @GetMapping("/ready")
        ResponseEntity<Map<String, Object>> ready() {
            Map<String, Object> results = new LinkedHashMap<>();
            checks.forEach((name, check) -> results.put(name, Status.UP.equals(check.health().getStatus())));
            boolean ready = results.values().stream().allMatch(Boolean.TRUE::equals);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("status", ready ? "ready" : "not ready");
            body.put("checks", results);
            return ResponseEntity.status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).body(body);
        }

        /** The {@code toolonce.agent.results} counters by outcome, since start-up. */
        @GetMapping("/consumer/stats")
        @PreAuthorize("hasRole('VIEWER')")
        Map<String, Long> stats() {
            return listener.stats();
        }
    }
}
