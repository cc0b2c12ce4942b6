package dev.toolonce.relay.stats;

import java.util.List;

import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.toolonce.relay.engine.RelayEngines;

/**
 * {@code GET /relay/stats}: records published and dead-lettered (the sums of the Micrometer counters
 * over sources and codes), commit→ack latency percentiles in milliseconds since start-up or the last
 * reset (the resettable window of {@link RelayStats}), and each source's state.
 * {@code POST /relay/stats/reset} clears that latency window; the counters, and every meter Prometheus
 * scrapes, keep counting. The bench reads this shape ({@code published}, {@code latencyMs.*}).
 */
@RestController
public class StatsController {

    private final RelayStats stats;
    private final RelayEngines engines;

    public StatsController(RelayStats stats, RelayEngines engines) {
        this.stats = stats;
        this.engines = engines;
    }

    /** Latency figures in milliseconds (microsecond resolution). */
    public record Latency(double p50, double p95, double p99, double max, long count) {
    }

    /** One source as the stats report it. */
    public record SourceStats(String name, boolean running, String slot, String state) {
    }

    /** The stats body. */
    public record Stats(long published, long deadLettered, Latency latencyMs, List<SourceStats> sources) {
    }

    @GetMapping("/relay/stats")
    @PreAuthorize("hasRole('VIEWER')")
    public Stats stats() {
        LatencyHistogram.Snapshot s = stats.latency();
        Latency latency = new Latency(ms(s.p50()), ms(s.p95()), ms(s.p99()), ms(s.max()), s.count());
        List<SourceStats> sources = engines.statuses().stream()
                .map(st -> new SourceStats(st.name(), st.running(), st.slot(), st.state().name()))
                .toList();
        return new Stats(stats.publishedCount(), stats.deadLetteredCount(), latency, sources);
    }

    @PostMapping("/relay/stats/reset")
    @PreAuthorize("hasRole('ADMIN')")
    public Stats reset() {
        stats.resetLatency();
        return stats();
    }

    private static double ms(long micros) {
        return Math.round(micros / 100.0) / 10.0;
    }
}
