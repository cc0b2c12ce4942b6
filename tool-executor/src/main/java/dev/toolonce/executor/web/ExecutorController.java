package dev.toolonce.executor.web;

import dev.toolonce.executor.metrics.ExecutorStats;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Readiness and counters. */
@RestController
public class ExecutorController {
    private final ExecutorStats stats;
    private final Map<String, HealthIndicator> checks = new LinkedHashMap<>();

    /** The checks are the readiness indicators of {@link ExecutorHealth}, under the names {@code /ready} reports. */
    public ExecutorController(ExecutorStats stats,
                              @Qualifier("ledgerDatabaseHealthIndicator") HealthIndicator database,
                              @Qualifier("listenersHealthIndicator") HealthIndicator listeners,
                              @Qualifier("dispatcherHealthIndicator") HealthIndicator dispatcher) {
        this.stats = stats;
        checks.put("database", database);
        checks.put("listeners", listeners);
        checks.put("dispatcher", dispatcher);
    }

    /**
     * 200 while the executor can do its work: the database answers, every listener container runs and the
     * dispatcher's loop is alive and not failing; 503 naming what is wrong otherwise.
     */
    @GetMapping("/ready")
    public ResponseEntity<Map<String, Object>> ready() {
        Map<String, Object> results = new LinkedHashMap<>();
        checks.forEach((name, check) -> results.put(name, Status.UP.equals(check.health().getStatus())));
        boolean ready = results.values().stream().allMatch(Boolean.TRUE::equals);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", ready ? "ready" : "not ready");
        body.put("checks", results);
        return ResponseEntity.status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).body(body);
    }

    @GetMapping("/executor/stats")
    @PreAuthorize("hasRole('VIEWER')")
    public Map<String, Long> stats() {
        return stats.snapshot();
    }
}
