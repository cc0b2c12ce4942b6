package dev.toolonce.agent;

import dev.toolonce.agent.results.ResultListener;
import dev.toolonce.jdbc.DatabaseProbe;
import dev.toolonce.messaging.ConsumerContainers;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The thin runnable on the agent library: the result consumer, the task engine and {@code /tasks} all come from
 * {@code toolonce-agent-spring-boot-starter} (configured from {@code toolonce.agent.*}, which
 * {@code toolonce-consumer.yml} maps from the older {@code toolonce.consumer.*} keys). This adds readiness and counters.
 */
@Configuration(proxyBeanMethods = false)
public class ConsumerConfiguration {

    /** Readiness and counters. */
    @RestController
    static class ConsumerController {
        private final ResultListener listener;
        private final DatabaseProbe database;
        private final KafkaListenerEndpointRegistry listeners;

        ConsumerController(ResultListener listener, DatabaseProbe database, KafkaListenerEndpointRegistry listeners) {
            this.listener = listener;
            this.database = database;
            this.listeners = listeners;
        }

        /** 200 while the database answers and every listener container runs; 503 naming what is wrong. */
        @GetMapping("/ready")
        ResponseEntity<Map<String, Object>> ready() {
            Map<String, Object> checks = new LinkedHashMap<>();
            checks.put("database", database.getAsBoolean());
            checks.put("listeners", ConsumerContainers.allRunning(listeners));
            boolean ready = checks.values().stream().allMatch(Boolean.TRUE::equals);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("status", ready ? "ready" : "not ready");
            body.put("checks", checks);
            return ResponseEntity.status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).body(body);
        }

        @GetMapping("/consumer/stats")
        Map<String, Long> stats() {
            return listener.stats();
        }
    }
}
