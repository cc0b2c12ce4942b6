package dev.toolonce.executor.web;

import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Readiness and counters. */
@RestController
public class ExecutorController {
    private final ExecutorStats stats;

    public ExecutorController(ExecutorStats stats) {
        this.stats = stats;
    }

    /** 200 once the context (migrations, listener, dispatcher) is up. */
    @GetMapping("/ready")
    public Map<String, String> ready() {
        return Map.of("status", "ready");
    }

    @GetMapping("/executor/stats")
    public Map<String, Long> stats() {
        return stats.snapshot();
    }
}
