package dev.toolonce.executor.web;

import dev.toolonce.executor.metrics.ExecutorStats;
import dev.toolonce.security.web.Readiness;
import java.util.Map;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.http.ResponseEntity;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Readiness and counters. */
@RestController
public class ExecutorController {
    private final ExecutorStats stats;
    private final HealthEndpoint health;

    public ExecutorController(ExecutorStats stats, HealthEndpoint health) {
        this.stats = stats;
        this.health = health;
    }

    /**
     * The readiness group ({@link ExecutorHealth}'s indicators: the database answers, every listener container runs,
     * the dispatcher's loop is alive and not failing): 200, or 503 naming what is wrong.
     */
    @GetMapping("/ready")
    public ResponseEntity<Map<String, Object>> ready() {
        return Readiness.of(health, Map.of());
    }

    @GetMapping("/executor/stats")
    @PreAuthorize("hasRole('VIEWER')")
    public Map<String, Long> stats() {
        return stats.snapshot();
    }
}
