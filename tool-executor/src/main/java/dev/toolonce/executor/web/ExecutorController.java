package dev.toolonce.executor.web;

import dev.toolonce.executor.execution.Dispatcher;
import dev.toolonce.executor.metrics.ExecutorStats;
import dev.toolonce.jdbc.DatabaseProbe;
import dev.toolonce.messaging.ConsumerContainers;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Readiness and counters. */
@RestController
public class ExecutorController {
    private static final Duration DISPATCH_SILENCE = ExecutorHealth.DISPATCH_SILENCE;

    private final ExecutorStats stats;
    private final DatabaseProbe database;
    private final KafkaListenerEndpointRegistry listeners;
    private final Dispatcher dispatcher;

    public ExecutorController(ExecutorStats stats, DatabaseProbe database, KafkaListenerEndpointRegistry listeners,
                              Dispatcher dispatcher) {
        this.stats = stats;
        this.database = database;
        this.listeners = listeners;
        this.dispatcher = dispatcher;
    }

    /**
     * 200 while the executor can do its work: the database answers, every listener container runs and the
     * dispatcher's loop is alive and not failing; 503 naming what is wrong otherwise.
     */
    @GetMapping("/ready")
    public ResponseEntity<Map<String, Object>> ready() {
        Map<String, Object> checks = new LinkedHashMap<>();
        checks.put("database", database.getAsBoolean());
        checks.put("listeners", ConsumerContainers.allRunning(listeners));
        checks.put("dispatcher", dispatcher.healthy(DISPATCH_SILENCE));
        boolean ready = checks.values().stream().allMatch(Boolean.TRUE::equals);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", ready ? "ready" : "not ready");
        body.put("checks", checks);
        return ResponseEntity.status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).body(body);
    }

    @GetMapping("/executor/stats")
    public Map<String, Long> stats() {
        return stats.snapshot();
    }
}
