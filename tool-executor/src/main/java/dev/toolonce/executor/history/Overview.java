package dev.toolonce.executor.history;

import dev.toolonce.executor.metrics.ExecutorStats;
import dev.toolonce.jdbc.SqlNames;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The console's overview (issue 23, API v1): the figures the project was seeded with, over a time window, read from
 * the ledger for the caller's tenants — calls by state, and transitions into each state over time; the calls in review
 * now, whenever they were created; unknown outcomes,
 * how many were reconciled without a person and how many reached review (reconciliation success rate, manual recovery
 * rate); recovery time from a call's first UNKNOWN to a final state or review (p50, p95, p99); compensations started,
 * settled and committed (compensation success rate: committed of settled). Two figures are not in the ledger but in this executor's counters since
 * it started, for every tenant at once: duplicate-effect alarms and the conflict rate (intents refused
 * {@code IDEMPOTENCY_PARAMETER_MISMATCH} among all intents taken in); they are shown to principals of every tenant
 * only.
 */
public final class Overview {
    private static final String TENANTS = "(CAST(:tenants AS text[]) IS NULL OR c.tenant_id = ANY(CAST(:tenants AS text[])))";
    private static final String BY_STATE = """
            SELECT c.state, count(*) AS n FROM %s.tool_call c
             WHERE c.created_at >= :since AND c.created_at < :until AND %s
             GROUP BY c.state ORDER BY c.state
            """;
    private static final String OVER_TIME = """
            SELECT date_bin(CAST(:step AS interval), a.at, :since) AS bucket, a.to_state AS state, count(*) AS n
              FROM %s.tool_call_attempt a JOIN %s.tool_call c ON c.id = a.call_id
             WHERE a.at >= :since AND a.at < :until AND %s
             GROUP BY 1, 2 ORDER BY 1, 2
            """;
    private static final String RECOVERY = """
            WITH unknown AS (
                SELECT a.call_id, min(a.at) AS unknown_at
                  FROM %s.tool_call_attempt a JOIN %s.tool_call c ON c.id = a.call_id
                 WHERE a.to_state = 'UNKNOWN' AND a.at >= :since AND a.at < :until AND %s
                 GROUP BY a.call_id),
            settled AS (
                SELECT u.call_id, u.unknown_at,
                       (SELECT min(b.at) FROM %s.tool_call_attempt b
                         WHERE b.call_id = u.call_id AND b.at >= u.unknown_at
                           AND b.to_state IN ('COMMITTED', 'FAILED_FINAL', 'NEEDS_REVIEW')) AS settled_at,
                       EXISTS (SELECT 1 FROM %s.tool_call_attempt b
                                WHERE b.call_id = u.call_id AND b.at >= u.unknown_at
                                  AND b.to_state = 'NEEDS_REVIEW') AS reviewed
                  FROM unknown u)
            SELECT count(*) AS unknown,
                   count(*) FILTER (WHERE settled_at IS NOT NULL AND NOT reviewed) AS reconciled,
                   count(*) FILTER (WHERE reviewed) AS to_review,
                   percentile_disc(0.50) WITHIN GROUP (ORDER BY CAST(extract(epoch FROM settled_at - unknown_at) * 1000 AS float8)) AS p50,
                   percentile_disc(0.95) WITHIN GROUP (ORDER BY CAST(extract(epoch FROM settled_at - unknown_at) * 1000 AS float8)) AS p95,
                   percentile_disc(0.99) WITHIN GROUP (ORDER BY CAST(extract(epoch FROM settled_at - unknown_at) * 1000 AS float8)) AS p99
              FROM settled
            """;
    private static final String COMPENSATIONS = """
            SELECT count(*) AS started, count(*) FILTER (WHERE c.state = 'COMMITTED') AS committed,
                   count(*) FILTER (WHERE c.state IN ('COMMITTED', 'FAILED_FINAL', 'NEEDS_REVIEW')) AS settled
              FROM %s.tool_call c
             WHERE c.kind = 'COMPENSATION' AND NOT c.held AND c.created_at >= :since AND c.created_at < :until AND %s
            """;
    /** Every call in review now, however old: the backlog a person has to work through. */
    private static final String BACKLOG = """
            SELECT count(*) FROM %s.tool_call c WHERE c.state = 'NEEDS_REVIEW' AND %s
            """;
    private static final int BUCKETS = 24;

    private final NamedParameterJdbcTemplate jdbc;
    private final ExecutorStats stats;
    private final String byState;
    private final String overTime;
    private final String recovery;
    private final String compensations;
    private final String backlog;

    public Overview(JdbcTemplate jdbc, String schema, ExecutorStats stats) {
        this.jdbc = new NamedParameterJdbcTemplate(jdbc);
        this.stats = stats;
        String s = SqlNames.schema(schema);
        this.byState = BY_STATE.formatted(s, TENANTS);
        this.overTime = OVER_TIME.formatted(s, s, TENANTS);
        this.recovery = RECOVERY.formatted(s, s, TENANTS, s, s);
        this.compensations = COMPENSATIONS.formatted(s, TENANTS);
        this.backlog = BACKLOG.formatted(s, TENANTS);
    }

    /**
     * The figures of calls of the caller's tenants in [since, until).
     *
     * @param tenants the caller's tenants, null for every tenant (then the executor's own counters are added)
     */
    public Map<String, Object> of(String[] tenants, Instant since, Instant until) {
        if (!since.isBefore(until)) {
            throw new IllegalArgumentException("since must be before until (were " + since + ", " + until + ")");
        }
        long windowSeconds = Math.max(1, Duration.between(since, until).toSeconds());
        long stepSeconds = Math.max(1, (windowSeconds + BUCKETS - 1) / BUCKETS); // whole seconds, at most 24 buckets
        Duration step = Duration.ofSeconds(stepSeconds);
        MapSqlParameterSource p = new MapSqlParameterSource("tenants", tenants)
                .addValue("since", java.sql.Timestamp.from(since)).addValue("until", java.sql.Timestamp.from(until))
                .addValue("step", step.toSeconds() + " seconds");
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("since", since.toString());
        out.put("until", until.toString());
        Map<String, Long> states = new LinkedHashMap<>();
        jdbc.query(byState, p, rs -> {
            states.put(rs.getString("state"), rs.getLong("n"));
        });
        out.put("callsByState", states);
        out.put("reviewBacklog", jdbc.queryForObject(backlog, p, Long.class));
        out.put("bucketSeconds", step.toSeconds());
        out.put("transitionsOverTime", jdbc.query(overTime, p, (rs, i) -> Map.of(
                "at", rs.getTimestamp("bucket").toInstant().toString(), "state", rs.getString("state"),
                "count", rs.getLong("n"))));
        out.put("recovery", jdbc.queryForObject(recovery, p, (rs, i) -> {
            long unknown = rs.getLong("unknown");
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("unknown", unknown);
            r.put("reconciled", rs.getLong("reconciled"));
            r.put("toReview", rs.getLong("to_review"));
            r.put("reconciliationSuccessRate", unknown == 0 ? null : (double) rs.getLong("reconciled") / unknown);
            r.put("manualRecoveryRate", unknown == 0 ? null : (double) rs.getLong("to_review") / unknown);
            r.put("recoveryMillisP50", rs.getObject("p50", Double.class));
            r.put("recoveryMillisP95", rs.getObject("p95", Double.class));
            r.put("recoveryMillisP99", rs.getObject("p99", Double.class));
            return r;
        }));
        out.put("compensations", jdbc.queryForObject(compensations, p, (rs, i) -> {
            long settled = rs.getLong("settled");
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("started", rs.getLong("started"));
            r.put("committed", rs.getLong("committed"));
            r.put("settled", settled);
            r.put("compensationSuccessRate", settled == 0 ? null : (double) rs.getLong("committed") / settled);
            return r;
        }));
        out.put("executor", tenants == null ? executorCounters() : null);
        return out;
    }

    /** This executor's counters since it started, for every tenant: what the ledger does not keep. */
    private Map<String, Object> executorCounters() {
        Map<String, Long> c = stats.snapshot();
        long intake = sum(c, "toolonce.intake{");
        long conflicts = c.getOrDefault("toolonce.rejections{code=IDEMPOTENCY_PARAMETER_MISMATCH}", 0L);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("duplicateEffectAlarms", sum(c, "toolonce.duplicates.alarm{"));
        r.put("intentsTakenIn", intake);
        r.put("conflicts", conflicts);
        r.put("conflictRate", intake == 0 ? null : (double) conflicts / intake);
        r.put("deadLettered", sum(c, "toolonce.consumer.dead_lettered{"));
        return r;
    }

    private static long sum(Map<String, Long> counters, String prefix) {
        return counters.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).mapToLong(Map.Entry::getValue)
                .sum();
    }
}
