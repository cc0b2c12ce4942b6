package dev.toolonce.chaos.oracle;

import dev.toolonce.chaos.faults.Injection;
import dev.toolonce.chaos.faults.Sandbox;
import dev.toolonce.chaos.stack.Sleep;
import dev.toolonce.chaos.workload.ResultsWatch;
import dev.toolonce.chaos.workload.SentCall;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * Waits for a round to quiesce and judges it. Duplicates are counted only at the sandbox's ledger by opId; lost
 * from the results topic and the agent's steps; stuck from the executor's ledger and the agent's tasks (sagas), which
 * are otherwise read only for the diagnostic counts (unknown, reconciled, review, compensations).
 */
public final class Oracle {
    public static final String PENDING_STEPS = """
            SELECT count(*) FROM agent.agent_step WHERE tenant_id = ? AND status = 'PENDING'
            """;
    static final String STEP_EXISTS = "SELECT 1 FROM agent.agent_step WHERE intent_message_id = ?";
    /**
     * Calls neither final nor in review. An original in {@code COMPENSATING} whose compensation is in review waits for
     * that review by design (the operator's decision on the compensation settles it), so it is not stuck.
     */
    public static final String STUCK = """
            SELECT count(*) FROM executor.tool_call c
             WHERE c.tenant_id = ? AND c.state NOT IN ('COMMITTED', 'FAILED_FINAL', 'NEEDS_REVIEW', 'COMPENSATED')
               AND NOT (c.state = 'COMPENSATING' AND EXISTS (
                   SELECT 1 FROM executor.tool_call k
                    WHERE k.tenant_id = c.tenant_id AND k.tool = c.tool AND k.operation = c.operation || '.compensate'
                      AND k.idempotency_key = c.idempotency_key AND k.state = 'NEEDS_REVIEW'))
            """;
    static final String TASKS = "SELECT count(*) FROM agent.agent_task WHERE tenant_id = ?";
    static final String OPEN_TASKS = """
            SELECT count(*) FROM agent.agent_task
             WHERE tenant_id = ? AND state NOT IN ('SUCCEEDED', 'COMPENSATED', 'FAILED', 'NEEDS_REVIEW')
            """;
    static final String NAIVE_STUCK = "SELECT count(*) FROM naive.call WHERE tenant_id = ? AND state <> 'DONE'";
    static final String REVIEW = "SELECT count(*) FROM executor.tool_call WHERE tenant_id = ? AND state = 'NEEDS_REVIEW'";
    static final String UNKNOWN = """
            SELECT count(*) FROM executor.tool_call_attempt a JOIN executor.tool_call c ON c.id = a.call_id
             WHERE c.tenant_id = ? AND a.to_state = 'UNKNOWN'
            """;
    static final String RECONCILED = """
            SELECT count(*) FROM executor.tool_call_attempt a JOIN executor.tool_call c ON c.id = a.call_id
             WHERE c.tenant_id = ? AND a.from_state = 'RECONCILING'
               AND a.to_state IN ('COMMITTED', 'FAILED_RETRYABLE', 'FAILED_FINAL')
            """;

    static final String COMPENSATIONS = """
            SELECT count(*) FILTER (WHERE a.to_state <> 'COMPENSATING'),
                   count(*) FILTER (WHERE a.to_state = 'COMPENSATED')
              FROM executor.tool_call_attempt a JOIN executor.tool_call c ON c.id = a.call_id
             WHERE c.tenant_id = ? AND a.from_state = 'COMPENSATING'
            """;

    private final String jdbcUrl;
    private final Sandbox sandbox;
    private final ResultsWatch watch;
    private final boolean naive;

    public Oracle(String jdbcUrl, Sandbox sandbox, ResultsWatch watch, boolean naive) {
        this.jdbcUrl = jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "connectTimeout=3&socketTimeout=30";
        this.sandbox = sandbox;
        this.watch = watch;
        this.naive = naive;
    }

    /**
     * Waits until every message that went in is answered, no step is pending and no call is stuck, or {@code
     * timeout} passed; then judges the round.
     */
    public RoundResult judge(String fault, int round, String tenant, Injection injection, List<SentCall> sent,
                             long extraDeliveries, Duration timeout) throws SQLException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        Set<String> expected = expected(sent);
        long nextPrint = start + 10_000_000_000L;
        while (System.nanoTime() < deadline && !quiet(tenant, expected)) {
            if (System.nanoTime() > nextPrint) {
                long answered = expected.stream().filter(id -> watch.answer(id) != null).count();
                System.out.printf("[chaos]   waiting for quiescence: %d/%d answered%n", answered, expected.size());
                nextPrint += 10_000_000_000L;
            }
            Sleep.millis(500);
        }
        long quiesceMillis = (System.nanoTime() - start) / 1_000_000;
        return verdict(fault, round, tenant, injection, sent, expected, extraDeliveries, quiesceMillis);
    }

    private Set<String> expected(List<SentCall> sent) throws SQLException {
        Set<String> expected = new HashSet<>();
        try (Connection c = connect(); PreparedStatement st = c.prepareStatement(STEP_EXISTS)) {
            for (SentCall call : sent) {
                if (!call.inDoubt()) {
                    expected.add(call.messageId());
                } else if (call.kind() == SentCall.Kind.OUTBOX) {
                    st.setString(1, call.messageId());
                    try (ResultSet rs = st.executeQuery()) {
                        if (rs.next()) {
                            expected.add(call.messageId()); // the commit went through after all
                        }
                    }
                }
            }
        }
        return expected;
    }

    private boolean quiet(String tenant, Set<String> expected) {
        if (!expected.stream().allMatch(id -> watch.answer(id) != null)) {
            return false;
        }
        try (Connection c = connect()) {
            return count(c, PENDING_STEPS, tenant) == 0 && count(c, naive ? NAIVE_STUCK : STUCK, tenant) == 0
                    && (naive || count(c, OPEN_TASKS, tenant) == 0);
        } catch (SQLException e) {
            return false; // PostgreSQL is still coming back
        }
    }

    private RoundResult verdict(String fault, int round, String tenant, Injection injection, List<SentCall> sent,
                                Set<String> expected, long extraDeliveries, long quiesceMillis) throws SQLException {
        Map<String, Long> applied = appliedByOpId(tenant);
        long duplicates = applied.values().stream().mapToLong(n -> Math.max(0, n - 1)).sum();
        Map<String, Long> statuses = new TreeMap<>();
        long lost = 0;
        long inDoubt = 0;
        long conflictsSent = 0;
        long conflictsRefused = 0;
        Set<String> opIds = new HashSet<>();
        for (SentCall call : sent) {
            opIds.add(call.opId());
            ResultsWatch.Answer answer = watch.answer(call.messageId());
            if (answer != null) {
                statuses.merge(answer.status(), 1L, Long::sum);
            } else if (expected.contains(call.messageId())) {
                lost++;
            } else {
                inDoubt++;
            }
            if (call.kind() == SentCall.Kind.CONFLICT) {
                conflictsSent++;
                if (answer != null && "IDEMPOTENCY_PARAMETER_MISMATCH".equals(answer.errorCode())) {
                    conflictsRefused++;
                }
            }
        }
        long stuck;
        long sagas = 0;
        long unknown = 0;
        long reconciled = 0;
        long review = 0;
        long[] compensations = {0, 0};
        try (Connection c = connect()) {
            lost += count(c, PENDING_STEPS, tenant);
            stuck = count(c, naive ? NAIVE_STUCK : STUCK, tenant);
            if (!naive) { // the baseline runs no sagas: its workload sends single calls only
                stuck += count(c, OPEN_TASKS, tenant);
                sagas = count(c, TASKS, tenant);
                unknown = count(c, UNKNOWN, tenant);
                reconciled = count(c, RECONCILED, tenant);
                review = count(c, REVIEW, tenant);
                compensations = counts(c, COMPENSATIONS, tenant, 2);
            }
        }
        long messages = sent.size() + extraDeliveries;
        return new RoundResult(fault, round, tenant, injection.count(), injection.note(), opIds.size(), sagas,
                sent.size(), Math.max(0, messages - opIds.size()), duplicates, lost, stuck, inDoubt, unknown, reconciled,
                review, compensations[0], compensations[1], conflictsSent, conflictsRefused, recovery(injection, sent),
                quiesceMillis, statuses, null);
    }

    /** Sum of applications per opId of this round at the sandbox, over every effect row that carries the opId. */
    private Map<String, Long> appliedByOpId(String tenant) {
        Map<String, Long> applied = new HashMap<>();
        for (JsonNode effect : sandbox.ledger(tenant + ":").path("effects")) {
            applied.merge(effect.path("opId").asString(""), effect.path("count").asLong(), Long::sum);
        }
        return applied;
    }

    /** Per fired fault: its injection → the first result of an intent sent at or after it. */
    private List<Long> recovery(Injection injection, List<SentCall> sent) {
        Map<String, Long> sentAt = new HashMap<>();
        sent.forEach(c -> sentAt.put(c.messageId(), c.sentNanos()));
        List<ResultsWatch.Arrival> arrivals = watch.arrivals();
        List<Long> millis = new ArrayList<>();
        for (long at : injection.atNanos()) {
            arrivals.stream()
                    .filter(a -> a.nanos() >= at && sentAt.getOrDefault(a.intentMessageId(), Long.MIN_VALUE) >= at)
                    .mapToLong(ResultsWatch.Arrival::nanos).min()
                    .ifPresent(first -> millis.add((first - at) / 1_000_000));
        }
        return millis;
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, "postgres", "");
    }

    private static long count(Connection c, String sql, String tenant) throws SQLException {
        return counts(c, sql, tenant, 1)[0];
    }

    private static long[] counts(Connection c, String sql, String tenant, int columns) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            st.setString(1, tenant);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                long[] values = new long[columns];
                for (int i = 0; i < columns; i++) {
                    values[i] = rs.getLong(i + 1);
                }
                return values;
            }
        }
    }
}
