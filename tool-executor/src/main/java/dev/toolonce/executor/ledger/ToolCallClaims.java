package dev.toolonce.executor.ledger;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.text.StoredText;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Claims and leases of the ledger's calls (docs/protocol.md §6, §7, §10): the dispatcher's claim of due calls, the
 * reconciler's claim of unknown ones, the heartbeats that extend leases, the pre-send re-check, and the sweep of
 * expired leases. Each is one set-based statement, its move declared with {@link SqlTransition}.
 */
public final class ToolCallClaims {
    /**
     * Claims due calls in one statement; SKIP LOCKED lets concurrent dispatchers take disjoint rows. The same
     * statement writes each claim's ledger note, so a claim costs one round trip however many calls it takes. A call
     * whose tool is paused for its tenant or for every tenant ('*', docs/adapters.md §6) is not taken, nor a held
     * compensation. A claim starts an attempt: the lookups failed since the last one are counted afresh.
     */
    @SqlTransition(from = {CallState.PLANNED, CallState.FAILED_RETRYABLE}, to = CallState.STARTED)
    private static final String CLAIM = """
            WITH moved AS (
                UPDATE %1$s.tool_call c
                   SET state = 'STARTED', fence = c.fence + 1, attempts = c.attempts + 1, lookup_failures = 0,
                       lease_owner = ?,
                       lease_expires_at = clock_timestamp() + make_interval(secs => ?),
                       started_at = coalesce(c.started_at, clock_timestamp()), updated_at = clock_timestamp()
                 WHERE c.id IN (SELECT q.id FROM %1$s.tool_call q
                                 WHERE q.state IN ('PLANNED', 'FAILED_RETRYABLE') AND NOT q.held
                                   AND (q.next_attempt_at IS NULL OR q.next_attempt_at <= clock_timestamp())
                                   AND NOT EXISTS (SELECT 1 FROM %1$s.paused_tool p
                                                    WHERE p.tool = q.tool AND p.tenant_id IN ('*', q.tenant_id))
                                 ORDER BY q.id
                                 LIMIT ?
                                 FOR UPDATE SKIP LOCKED)
                RETURNING %2$s
            ), noted AS (
                INSERT INTO %1$s.tool_call_attempt (call_id, fence, from_state, to_state, detail)
                SELECT id, fence, NULL, 'STARTED', ? FROM moved
            )
            SELECT %2$s FROM moved ORDER BY id
            """;
    /**
     * {@link #CLAIM} of the calls with these ids that are due, found by primary key instead of by walking the due
     * index: the calls this executor's intake has just planned (docs/protocol.md §19). The same guards apply; an id
     * that is no longer due, held, paused or locked by another claimant is simply not taken.
     */
    @SqlTransition(from = {CallState.PLANNED, CallState.FAILED_RETRYABLE}, to = CallState.STARTED)
    private static final String CLAIM_BY_ID = """
            WITH moved AS (
                UPDATE %1$s.tool_call c
                   SET state = 'STARTED', fence = c.fence + 1, attempts = c.attempts + 1, lookup_failures = 0,
                       lease_owner = ?,
                       lease_expires_at = clock_timestamp() + make_interval(secs => ?),
                       started_at = coalesce(c.started_at, clock_timestamp()), updated_at = clock_timestamp()
                 WHERE c.id IN (SELECT q.id FROM %1$s.tool_call q
                                 WHERE q.id = ANY(?::bigint[])
                                   AND q.state IN ('PLANNED', 'FAILED_RETRYABLE') AND NOT q.held
                                   AND (q.next_attempt_at IS NULL OR q.next_attempt_at <= clock_timestamp())
                                   AND NOT EXISTS (SELECT 1 FROM %1$s.paused_tool p
                                                    WHERE p.tool = q.tool AND p.tenant_id IN ('*', q.tenant_id))
                                 ORDER BY q.id
                                 FOR UPDATE SKIP LOCKED)
                RETURNING %2$s
            ), noted AS (
                INSERT INTO %1$s.tool_call_attempt (call_id, fence, from_state, to_state, detail)
                SELECT id, fence, NULL, 'STARTED', ? FROM moved
            )
            SELECT %2$s FROM moved ORDER BY id
            """;
    /** A STARTED or RECONCILING call whose lease ran out: its outcome is unknown; fence + 1 shuts out the old holder. */
    @SqlTransition(from = {CallState.STARTED, CallState.RECONCILING}, to = CallState.UNKNOWN)
    private static final String SWEEP = """
            WITH moved AS (
                UPDATE %1$s.tool_call c
                   SET state = 'UNKNOWN', fence = c.fence + 1, lease_owner = NULL, lease_expires_at = NULL,
                       next_attempt_at = clock_timestamp() + make_interval(secs => coalesce(
                           (SELECT s.secs FROM unnest(?::text[], ?::float8[]) AS s (tool, secs) WHERE s.tool = c.tool), ?)),
                       error_class = 'LEASE_EXPIRED',
                       updated_at = clock_timestamp()
                 WHERE c.id IN (SELECT id FROM %1$s.tool_call
                                 WHERE state IN ('STARTED', 'RECONCILING') AND lease_expires_at < (SELECT clock_timestamp())
                                 ORDER BY lease_expires_at
                                 LIMIT ?
                                 FOR UPDATE SKIP LOCKED)
                RETURNING %2$s
            ), noted AS (
                INSERT INTO %1$s.tool_call_attempt (call_id, fence, from_state, to_state, detail)
                SELECT id, fence, NULL, 'UNKNOWN', 'lease expired' FROM moved
            )
            SELECT %2$s FROM moved ORDER BY id
            """;
    /**
     * Extends the leases of calls a worker still holds; only rows whose (id, fence, state) still match win. The rows
     * are locked in ascending id order, the order a group of finishes takes them ({@link ToolCallStore#finishAll}),
     * so a heartbeat waits for a committing group instead of deadlocking with it.
     */
    private static final String HEARTBEAT = """
            UPDATE %1$s.tool_call
               SET lease_expires_at = clock_timestamp() + make_interval(secs => ?), updated_at = clock_timestamp()
             WHERE id IN (SELECT c.id FROM %1$s.tool_call c
                            JOIN unnest(?::bigint[], ?::bigint[]) AS h (id, fence) ON c.id = h.id AND c.fence = h.fence
                           WHERE c.state = ?
                           ORDER BY c.id
                             FOR NO KEY UPDATE OF c)
            RETURNING id
            """;
    private static final String STILL_HELD = """
            SELECT count(*) FROM %1$s.tool_call
             WHERE id = ? AND state = ? AND fence = ? AND lease_expires_at > clock_timestamp()
            """;
    /**
     * Takes UNKNOWN calls whose settle delay passed into RECONCILING, with a lease and fence of its own; like {@link
     * #CLAIM}, never a call whose tool is paused for its tenant or for every tenant.
     */
    @SqlTransition(from = CallState.UNKNOWN, to = CallState.RECONCILING)
    private static final String CLAIM_UNKNOWN = """
            WITH moved AS (
                UPDATE %1$s.tool_call c
                   SET state = 'RECONCILING', fence = c.fence + 1, lease_owner = ?,
                       lease_expires_at = clock_timestamp() + make_interval(secs => ?), updated_at = clock_timestamp()
                 WHERE c.id IN (SELECT q.id FROM %1$s.tool_call q
                                 WHERE q.state = 'UNKNOWN'
                                   AND (q.next_attempt_at IS NULL OR q.next_attempt_at <= clock_timestamp())
                                   AND NOT EXISTS (SELECT 1 FROM %1$s.paused_tool p
                                                    WHERE p.tool = q.tool AND p.tenant_id IN ('*', q.tenant_id))
                                 ORDER BY q.id
                                 LIMIT ?
                                 FOR UPDATE SKIP LOCKED)
                RETURNING %2$s
            ), noted AS (
                INSERT INTO %1$s.tool_call_attempt (call_id, fence, from_state, to_state, detail)
                SELECT id, fence, 'UNKNOWN', 'RECONCILING', ? FROM moved
            )
            SELECT %2$s FROM moved ORDER BY id
            """;

    private final JdbcTemplate jdbc;
    private final LedgerSql sql;

    public ToolCallClaims(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        this.sql = new LedgerSql(schema);
    }

    /**
     * Claims up to {@code limit} due calls ({@code PLANNED}, or {@code FAILED_RETRYABLE} whose time has come):
     * each moves to STARTED with fence + 1 and a lease of {@code lease} in database time. Exactly one
     * claimant wins each row.
     */
    public List<ToolCall> claim(String owner, int limit, Duration lease) {
        return jdbc.query(sql.of(CLAIM), LedgerSql.CALL, owner, lease.toMillis() / 1000.0, limit,
                StoredText.clean("claimed by " + owner));
    }

    /**
     * Claims those of the given calls that are due, as {@link #claim} would, without walking the due index: for ids
     * known to have just been planned. An id that is not due (claimed meanwhile, held, paused, gone) is left out.
     */
    public List<ToolCall> claimByIds(String owner, List<Long> ids, Duration lease) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return jdbc.query(con -> {
            var ps = con.prepareStatement(sql.of(CLAIM_BY_ID));
            ps.setString(1, owner);
            ps.setDouble(2, lease.toMillis() / 1000.0);
            ps.setArray(3, con.createArrayOf("int8", ids.toArray()));
            ps.setString(4, StoredText.clean("claimed by " + owner));
            return ps;
        }, LedgerSql.CALL);
    }

    /**
     * Moves up to {@code limit} calls whose lease expired to UNKNOWN (fence + 1), to be reconciled after
     * {@code settle}. Never sends them back to execution directly (docs/protocol.md §7).
     */
    public List<ToolCall> sweepExpiredLeases(int limit, Duration settle) {
        return sweepExpiredLeases(limit, settle, java.util.Map.of());
    }

    /**
     * As {@link #sweepExpiredLeases(int, Duration)}, each call reconciled after its tool's own settle delay
     * ({@code settleByTool}), or {@code settle} for a tool not in the map.
     */
    public List<ToolCall> sweepExpiredLeases(int limit, Duration settle, java.util.Map<String, Duration> settleByTool) {
        String[] tools = settleByTool.keySet().toArray(String[]::new);
        Double[] secs = java.util.Arrays.stream(tools).map(t -> settleByTool.get(t).toMillis() / 1000.0)
                .toArray(Double[]::new);
        return jdbc.query(con -> {
            var ps = con.prepareStatement(sql.of(SWEEP));
            ps.setArray(1, con.createArrayOf("text", tools));
            ps.setArray(2, con.createArrayOf("float8", secs));
            ps.setDouble(3, settle.toMillis() / 1000.0);
            ps.setInt(4, limit);
            return ps;
        }, LedgerSql.CALL);
    }

    /**
     * Extends the leases of the given held calls (same state and fence).
     *
     * @return ids whose lease was extended; a held call missing from it has lost its guard
     */
    public List<Long> heartbeat(CallState state, List<ToolCall> held, Duration lease) {
        if (held.isEmpty()) {
            return List.of();
        }
        Long[] ids = held.stream().map(ToolCall::id).toArray(Long[]::new);
        Long[] fences = held.stream().map(ToolCall::fence).toArray(Long[]::new);
        return jdbc.query(con -> {
            var ps = con.prepareStatement(sql.of(HEARTBEAT));
            ps.setDouble(1, lease.toMillis() / 1000.0);
            ps.setArray(2, con.createArrayOf("bigint", ids));
            ps.setArray(3, con.createArrayOf("bigint", fences));
            ps.setString(4, state.name());
            return ps;
        }, (rs, i) -> rs.getLong(1));
    }

    /** The pre-send re-check: is the call still in {@code state} with this fence and an unexpired lease? */
    public boolean stillHeld(ToolCall call, CallState state) {
        Integer n = jdbc.queryForObject(sql.of(STILL_HELD), Integer.class, call.id(), state.name(), call.fence());
        return n != null && n == 1;
    }

    /** Claims UNKNOWN calls for reconciliation (UNKNOWN→RECONCILING, fence + 1, lease). */
    public List<ToolCall> claimForReconciliation(String owner, int limit, Duration lease) {
        return jdbc.query(sql.of(CLAIM_UNKNOWN), LedgerSql.CALL, owner, lease.toMillis() / 1000.0, limit,
                StoredText.clean("reconciliation claimed by " + owner));
    }
}
