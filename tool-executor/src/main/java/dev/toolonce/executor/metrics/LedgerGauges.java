package dev.toolonce.executor.metrics;

import dev.toolonce.core.call.CallState;
import dev.toolonce.executor.schedule.Periodic;
import dev.toolonce.jdbc.SqlNames;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Gauges of the ledger's backlog for dashboards and alerts: open calls by state ({@code toolonce.calls}), the
 * age of the oldest {@code PLANNED} call ({@code toolonce.calls.oldest_planned_age}, seconds), the review backlog
 * ({@code toolonce.review.backlog}) and tool pauses ({@code toolonce.tools.paused}: one per tool and tenant, a pause of
 * every tenant counting once — tenant ids are not tags, there may be many). One query every
 * {@code interval} refreshes them all, so a scrape never touches the database; terminal states are not counted
 * (they only grow, and counting them would scan the whole ledger), and each open state is read through its partial
 * index. While the database is down the gauges keep their last values.
 */
public final class LedgerGauges implements SmartLifecycle {
    /**
     * One branch per partial index of open states (due, lease, compensating, unsettled), so that each reads only the
     * open calls: a filter on "not terminal" matches no index and walked the whole ledger.
     */
    private static final String QUERY = """
            SELECT c.state, count(*), extract(epoch FROM clock_timestamp() - min(c.created_at))
              FROM %1$s.tool_call c WHERE c.state IN ('PLANNED', 'FAILED_RETRYABLE') GROUP BY c.state
             UNION ALL
            SELECT c.state, count(*), NULL FROM %1$s.tool_call c WHERE c.state IN ('STARTED', 'RECONCILING') GROUP BY c.state
             UNION ALL
            SELECT c.state, count(*), NULL FROM %1$s.tool_call c WHERE c.state = 'COMPENSATING' GROUP BY c.state
             UNION ALL
            SELECT c.state, count(*), NULL FROM %1$s.tool_call c WHERE c.state IN ('UNKNOWN', 'NEEDS_REVIEW') GROUP BY c.state
             UNION ALL
            SELECT NULL, count(*), NULL FROM %1$s.paused_tool
            """;

    private final JdbcTemplate jdbc;
    private final String query;
    private final Duration interval;
    private final Periodic timer = new Periodic("ledger-gauges");
    private final Map<CallState, AtomicLong> byState = new EnumMap<>(CallState.class);
    private final AtomicLong oldestPlannedSeconds = new AtomicLong();
    private final AtomicLong pausedTools = new AtomicLong();
    private volatile boolean running;

    /** @param schema the executor's schema */
    public LedgerGauges(JdbcTemplate jdbc, String schema, Duration interval, MeterRegistry registry) {
        this.jdbc = jdbc;
        this.query = QUERY.formatted(SqlNames.schema(schema));
        this.interval = interval;
        for (CallState s : CallState.values()) {
            if (!s.isTerminal()) {
                AtomicLong n = new AtomicLong();
                byState.put(s, n);
                Gauge.builder("toolonce.calls", n, AtomicLong::get).tag("state", s.name())
                        .description("open calls in the ledger by state").register(registry);
            }
        }
        Gauge.builder("toolonce.review.backlog", byState.get(CallState.NEEDS_REVIEW), AtomicLong::get)
                .description("calls waiting for an operator").register(registry);
        Gauge.builder("toolonce.calls.oldest_planned_age", oldestPlannedSeconds, AtomicLong::get)
                .baseUnit("seconds").description("age of the oldest PLANNED call, 0 when none").register(registry);
        Gauge.builder("toolonce.tools.paused", pausedTools, AtomicLong::get)
                .description("tool pauses after refused credentials, one per tool and tenant ('*' once)")
                .register(registry);
    }

    /** Reads the ledger once and sets every gauge (the row without a state counts pauses). */
    public void refresh() {
        Map<CallState, Long> counts = new EnumMap<>(CallState.class);
        long[] oldestPlanned = {0};
        long[] paused = {0};
        jdbc.query(query, rs -> {
            String state = rs.getString(1);
            if (state == null) {
                paused[0] = rs.getLong(2);
                return;
            }
            CallState s = CallState.valueOf(state);
            counts.put(s, rs.getLong(2));
            if (s == CallState.PLANNED) {
                oldestPlanned[0] = Math.round(rs.getDouble(3));
            }
        });
        byState.forEach((s, n) -> n.set(counts.getOrDefault(s, 0L)));
        oldestPlannedSeconds.set(oldestPlanned[0]);
        pausedTools.set(paused[0]);
    }

    @Override
    public void start() {
        running = true;
        timer.every(interval, this::refresh);
    }

    @Override
    public void stop() {
        running = false;
        timer.stop();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
