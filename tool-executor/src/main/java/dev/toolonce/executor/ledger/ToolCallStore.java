package dev.toolonce.executor.ledger;

import dev.toolonce.core.call.CallKind;
import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.call.Transitions;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import dev.toolonce.core.lifecycle.Move;
import dev.toolonce.core.text.StoredText;
import dev.toolonce.jdbc.SqlNames;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * The ledger, and the one class that writes it: {@code tool_call}, each call's history in {@code tool_call_attempt}
 * — despite the table's name, one row per transition or note, not per attempt (docs/protocol.md §4) — and the
 * tombstones of purged calls in {@code tool_call_tombstone} (§13); docs/protocol.md §20 lists every table's store.
 * Every state change is a guarded update on {@code (id, state, fence)} that reports whether it won; times are the
 * database's {@code clock_timestamp()}, never the host's. Text that may come from a tool (external id, result, error
 * message, history details) is stored without NUL ({@link StoredText}), so that no answer can make a
 * completion fail on every retry.
 */
public final class ToolCallStore {
    private static final String COLUMNS = """
            id, tenant_id, tool, operation, idempotency_key, provider_key, request_hash, arguments, state, fence,
            call_version, attempts, external_object_id, result, error_code, error_message, task_id, step_id,
            intent_message_id, traceparent, terminal_at, kind, effect_possible, lookup_failures, evidence_of_effect""";

    @SqlTransition(from = {}, to = CallState.PLANNED)
    private static final String INSERT_PLANNED = """
            INSERT INTO %1$s.tool_call (tenant_id, tool, operation, idempotency_key, provider_key, request_hash,
                arguments, state, task_id, step_id, intent_message_id, traceparent, kind)
            SELECT v.tenant_id, v.tool, v.operation, v.idempotency_key, v.provider_key, v.request_hash, v.arguments,
                   'PLANNED', v.task_id, v.step_id, v.intent_message_id, v.traceparent, v.kind
              FROM (VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?))
                   AS v (tenant_id, tool, operation, idempotency_key, provider_key, request_hash, arguments, task_id,
                         step_id, intent_message_id, traceparent, kind)
             WHERE NOT EXISTS (SELECT 1 FROM %1$s.tool_call_tombstone t
                                WHERE t.tenant_id = v.tenant_id AND t.tool = v.tool AND t.operation = v.operation
                                  AND t.idempotency_key = v.idempotency_key)
            ON CONFLICT (tenant_id, tool, operation, idempotency_key) DO NOTHING
            RETURNING %2$s
            """;
    private static final String FIND_FOR_SHARE = """
            SELECT %2$s FROM %1$s.tool_call
            WHERE tenant_id = ? AND tool = ? AND operation = ? AND idempotency_key = ?
            FOR SHARE
            """;
    private static final String FIND = """
            SELECT %2$s FROM %1$s.tool_call
            WHERE tenant_id = ? AND tool = ? AND operation = ? AND idempotency_key = ?
            """;
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
    /** A guarded move and its ledger note in one statement: the note is written only if the move won. */
    @SqlTransition.Parameters(checkedBy = "finish")
    private static final String FINISH = """
            WITH moved AS (
                UPDATE %1$s.tool_call
                   SET state = ?, call_version = call_version + ?, external_object_id = coalesce(?, external_object_id),
                       result = coalesce(?, result), error_class = ?, error_code = ?, error_message = ?,
                       effect_possible = ?, lookup_failures = lookup_failures + ?,
                       next_attempt_at = clock_timestamp() + make_interval(secs => ?),
                       lease_owner = NULL, lease_expires_at = NULL, updated_at = clock_timestamp(),
                       terminal_at = CASE WHEN ? THEN clock_timestamp() ELSE terminal_at END
                 WHERE id = ? AND state = ? AND fence = ?
                RETURNING %2$s
            ), noted AS (
                INSERT INTO %1$s.tool_call_attempt (call_id, fence, from_state, to_state, detail)
                SELECT id, fence, ?, state, ? FROM moved
            )
            SELECT %2$s FROM moved
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
                                 WHERE state IN ('STARTED', 'RECONCILING') AND lease_expires_at < clock_timestamp()
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
    /** Extends the leases of calls a worker still holds; only rows whose (id, fence, state) still match win. */
    private static final String HEARTBEAT = """
            UPDATE %1$s.tool_call
               SET lease_expires_at = clock_timestamp() + make_interval(secs => ?), updated_at = clock_timestamp()
             WHERE state = ? AND (id, fence) IN (SELECT * FROM unnest(?::bigint[], ?::bigint[]))
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
    private static final String BY_ID = """
            SELECT %2$s FROM %1$s.tool_call WHERE id = ?
            """;
    private static final String IN_STATE = """
            SELECT %2$s FROM %1$s.tool_call
             WHERE state = ? AND (CAST(? AS text[]) IS NULL OR tenant_id = ANY(CAST(? AS text[]))) ORDER BY id LIMIT ?
            """;
    private static final String TOMBSTONE = """
            SELECT state || coalesce(' ' || external_object_id, '') || ' at ' || terminal_at
              FROM %1$s.tool_call_tombstone
             WHERE tenant_id = ? AND tool = ? AND operation = ? AND idempotency_key = ?
            """;
    /** How long ago the call was first claimed, in database time; null before its first claim. */
    private static final String SINCE_FIRST_ATTEMPT = """
            SELECT extract(epoch FROM clock_timestamp() - started_at) FROM %1$s.tool_call WHERE id = ?
            """;
    /** How long ago the call last became UNKNOWN, in database time; null if it never was. */
    private static final String SINCE_UNKNOWN = """
            SELECT extract(epoch FROM clock_timestamp() - max(at)) FROM %1$s.tool_call_attempt
             WHERE call_id = ? AND to_state = 'UNKNOWN'
            """;
    /** Evidence of an effect: the fact on the call and the evidence itself in its history, in one statement. */
    private static final String NOTE_EVIDENCE = """
            WITH marked AS (
                UPDATE %1$s.tool_call SET evidence_of_effect = true, updated_at = clock_timestamp() WHERE id = ?
                RETURNING id
            )
            INSERT INTO %1$s.tool_call_attempt (call_id, fence, from_state, to_state, detail)
            SELECT id, ?, ?, ?, ? FROM marked
            """;
    /** The purge-race re-check of a fresh plan (see insertPlanned): a read, in a statement of its own. */
    private static final String PURGED_MEANWHILE = """
            SELECT count(*) FROM %1$s.tool_call_tombstone t
             WHERE t.tenant_id = ? AND t.tool = ? AND t.operation = ? AND t.idempotency_key = ?
            """;
    /** Undoes a plan inserted in the current transaction that raced a purge; never touches a claimed call. */
    private static final String DISCARD_PLANNED = """
            DELETE FROM %1$s.tool_call WHERE id = ? AND state = 'PLANNED' AND fence = 0
            """;
    private static final String HISTORY = """
            INSERT INTO %1$s.tool_call_attempt (call_id, fence, from_state, to_state, detail)
            VALUES (?, ?, ?, ?, ?)
            """;

    /**
     * Compensations (docs/protocol.md §17) write only {@code held} of a compensation nobody claimed yet: it holds the
     * compensation back from the dispatcher until its original may be undone, and a release makes it due now. Neither
     * changes a state; those moves go through {@link #finish}.
     */
    private static final String HOLD_COMPENSATION = """
            UPDATE %s.tool_call SET held = true
             WHERE id = ? AND state = 'PLANNED' AND fence = 0 AND kind = 'COMPENSATION'
            """;
    private static final String RELEASE_COMPENSATION = """
            UPDATE %s.tool_call SET held = false, next_attempt_at = clock_timestamp(), updated_at = clock_timestamp()
             WHERE id = ? AND held
            """;
    private static final String HELD_COMPENSATIONS = """
            SELECT id, tenant_id, tool, operation, idempotency_key FROM %s.tool_call
             WHERE held
             ORDER BY id LIMIT ?
            """;
    /** Originals under compensation whose compensation call has an outcome that settles them. */
    private static final String SETTLED_COMPENSATIONS = """
            SELECT o.tenant_id, o.tool, o.operation, o.idempotency_key, c.state
              FROM %1$s.tool_call o
              JOIN %1$s.tool_call c ON c.tenant_id = o.tenant_id AND c.tool = o.tool
                                   AND c.operation = o.operation || '.compensate'
                                   AND c.idempotency_key = o.idempotency_key AND c.kind = 'COMPENSATION'
             WHERE o.state = 'COMPENSATING' AND c.state IN ('COMMITTED', 'FAILED_FINAL')
             ORDER BY o.id LIMIT ?
            """;
    /**
     * docs/protocol.md §13: deletes terminal calls by the time they became terminal, oldest first, and writes their
     * tombstones in the same statement — never a call of a task its agent reports open ({@code task_hold}, read
     * here, written by {@link TaskHoldStore}). The history goes with its call (ON DELETE CASCADE).
     */
    private static final String PURGE_TERMINAL = """
            WITH gone AS (
                DELETE FROM %1$s.tool_call
                 WHERE id IN (SELECT c.id FROM %1$s.tool_call c
                               WHERE c.terminal_at < clock_timestamp() - make_interval(secs => ?)
                                 AND c.state IN ('COMMITTED', 'FAILED_FINAL', 'COMPENSATED')
                                 AND NOT EXISTS (SELECT 1 FROM %1$s.task_hold h WHERE h.open
                                                  AND h.tenant_id = c.tenant_id AND h.task_id = c.task_id)
                               ORDER BY c.terminal_at LIMIT ?)
                RETURNING tenant_id, tool, operation, idempotency_key, request_hash, state, external_object_id, terminal_at)
            INSERT INTO %1$s.tool_call_tombstone (tenant_id, tool, operation, idempotency_key, request_hash, state,
                                                 external_object_id, terminal_at)
            SELECT * FROM gone
            ON CONFLICT (tenant_id, tool, operation, idempotency_key) DO UPDATE
               SET request_hash = EXCLUDED.request_hash, state = EXCLUDED.state,
                   external_object_id = EXCLUDED.external_object_id, terminal_at = EXCLUDED.terminal_at
            """;

    private final JdbcTemplate jdbc;
    private final String insertPlanned;
    private final String purgedMeanwhile;
    private final String discardPlanned;
    private final String findForShare;
    private final String find;
    private final String claim;
    private final String finish;
    private final String history;
    private final String sweep;
    private final String heartbeat;
    private final String stillHeld;
    private final String claimUnknown;
    private final String byId;
    private final String inState;
    private final String tombstone;
    private final String sinceFirstAttempt;
    private final String sinceUnknown;
    private final String noteEvidence;
    private final String holdCompensation;
    private final String releaseCompensation;
    private final String heldCompensations;
    private final String settledCompensations;
    private final String purgeTerminal;

    public ToolCallStore(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        String s = SqlNames.schema(schema);
        this.insertPlanned = INSERT_PLANNED.formatted(s, COLUMNS);
        this.purgedMeanwhile = PURGED_MEANWHILE.formatted(s);
        this.discardPlanned = DISCARD_PLANNED.formatted(s);
        this.findForShare = FIND_FOR_SHARE.formatted(s, COLUMNS);
        this.find = FIND.formatted(s, COLUMNS);
        this.claim = CLAIM.formatted(s, COLUMNS);
        this.finish = FINISH.formatted(s, COLUMNS);
        this.history = HISTORY.formatted(s);
        this.sweep = SWEEP.formatted(s, COLUMNS);
        this.heartbeat = HEARTBEAT.formatted(s);
        this.stillHeld = STILL_HELD.formatted(s);
        this.claimUnknown = CLAIM_UNKNOWN.formatted(s, COLUMNS);
        this.byId = BY_ID.formatted(s, COLUMNS);
        this.inState = IN_STATE.formatted(s, COLUMNS);
        this.tombstone = TOMBSTONE.formatted(s);
        this.sinceFirstAttempt = SINCE_FIRST_ATTEMPT.formatted(s);
        this.sinceUnknown = SINCE_UNKNOWN.formatted(s);
        this.noteEvidence = NOTE_EVIDENCE.formatted(s);
        this.holdCompensation = HOLD_COMPENSATION.formatted(s);
        this.releaseCompensation = RELEASE_COMPENSATION.formatted(s);
        this.heldCompensations = HELD_COMPENSATIONS.formatted(s);
        this.settledCompensations = SETTLED_COMPENSATIONS.formatted(s);
        this.purgeTerminal = PURGE_TERMINAL.formatted(s);
    }

    /** Prefix of history details that record evidence of an effect (a late Applied); see {@link #noteEvidence}. */
    public static final String EVIDENCE = "EVIDENCE ";

    /** A call to plan: the scope, its hashes and where the answer goes ({@code traceparent} nullable). */
    public record NewCall(CallScope scope, ProviderKey providerKey, RequestHash requestHash, String argumentsJson,
                          String taskId, String stepId, String intentMessageId, String traceparent) {
    }

    /**
     * Inserts a PLANNED call in one statement — the common case of a new scope costs no read. Empty when the
     * scope already has a call or was purged (a tombstone exists); nothing changed then.
     */
    public Optional<ToolCall> insertPlanned(NewCall c) {
        CallScope s = c.scope();
        List<ToolCall> rows = jdbc.query(insertPlanned, MAPPER, s.tenantId(), s.tool(), s.operation(),
                s.idempotencyKey(), c.providerKey().value(), c.requestHash().value(), c.argumentsJson(), c.taskId(),
                c.stepId(), c.intentMessageId(), c.traceparent(), CallKind.of(s.operation()).name());
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        ToolCall call = rows.get(0);
        // A purge of the scope's previous call may have committed while this insert waited on that row: the
        // insert's NOT EXISTS saw no tombstone then. A fresh statement (a new snapshot under READ COMMITTED)
        // looks again; if the tombstone is there now, the insert is undone in this same transaction (nobody
        // ever saw it), so a purged scope is never planned again. The call row itself records who planned it
        // (intent_message_id); the ledger's history starts with its first claim.
        Integer purged = jdbc.queryForObject(purgedMeanwhile, Integer.class, s.tenantId(), s.tool(), s.operation(),
                s.idempotencyKey());
        if (purged != null && purged > 0) {
            jdbc.update(discardPlanned, call.id());
            return Optional.empty();
        }
        return Optional.of(call);
    }

    /**
     * Reads a scope's call and holds a share lock until the transaction ends, so that a completion cannot
     * slip between this read and the caller's decision.
     */
    public Optional<ToolCall> findForShare(CallScope scope) {
        return jdbc.query(findForShare, MAPPER, scope.tenantId(), scope.tool(), scope.operation(),
                scope.idempotencyKey()).stream().findFirst();
    }

    /** Reads a scope's call without locking. */
    public Optional<ToolCall> find(CallScope scope) {
        return jdbc.query(find, MAPPER, scope.tenantId(), scope.tool(), scope.operation(),
                scope.idempotencyKey()).stream().findFirst();
    }

    /**
     * Claims up to {@code limit} due calls ({@code PLANNED}, or {@code FAILED_RETRYABLE} whose time has come):
     * each moves to STARTED with fence + 1 and a lease of {@code lease} in database time. Exactly one
     * claimant wins each row.
     */
    public List<ToolCall> claim(String owner, int limit, Duration lease) {
        return jdbc.query(claim, MAPPER, owner, lease.toMillis() / 1000.0, limit,
                StoredText.clean("claimed by " + owner));
    }

    /**
     * Moves a claimed call out of {@code from} if, and only if, it is still in {@code from} with {@code fence}.
     *
     * @return the updated call, or empty when the guard was lost (another worker or the sweeper moved it)
     * @throws dev.toolonce.core.call.IllegalTransitionException when {@code from -> f.to()} is illegal
     */
    public Optional<ToolCall> finish(ToolCall call, CallState from, Move f) {
        Transitions.check(from, f.to());
        double retrySecs = f.dueIn() == null ? 0 : f.dueIn().toMillis() / 1000.0;
        String detail = f.errorCode() == null ? f.externalObjectId() : f.errorCode() + ": " + f.errorMessage();
        List<ToolCall> rows = jdbc.query(finish, MAPPER, f.to().name(), f.newOutcome() ? 1 : 0,
                StoredText.clean(f.externalObjectId()), StoredText.cleanJson(f.resultJson()), f.errorClass(),
                StoredText.clean(f.errorCode()), StoredText.clean(f.errorMessage()), f.effectPossible(),
                f.lookupFailed() ? 1 : 0, retrySecs,
                f.to().isTerminal(), call.id(), from.name(), call.fence(), from.name(), StoredText.clean(detail));
        return rows.stream().findFirst();
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
            var ps = con.prepareStatement(sweep);
            ps.setArray(1, con.createArrayOf("text", tools));
            ps.setArray(2, con.createArrayOf("float8", secs));
            ps.setDouble(3, settle.toMillis() / 1000.0);
            ps.setInt(4, limit);
            return ps;
        }, MAPPER);
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
            var ps = con.prepareStatement(heartbeat);
            ps.setDouble(1, lease.toMillis() / 1000.0);
            ps.setString(2, state.name());
            ps.setArray(3, con.createArrayOf("bigint", ids));
            ps.setArray(4, con.createArrayOf("bigint", fences));
            return ps;
        }, (rs, i) -> rs.getLong(1));
    }

    /** The pre-send re-check: is the call still in {@code state} with this fence and an unexpired lease? */
    public boolean stillHeld(ToolCall call, CallState state) {
        Integer n = jdbc.queryForObject(stillHeld, Integer.class, call.id(), state.name(), call.fence());
        return n != null && n == 1;
    }

    /** Claims UNKNOWN calls for reconciliation (UNKNOWN→RECONCILING, fence + 1, lease). */
    public List<ToolCall> claimForReconciliation(String owner, int limit, Duration lease) {
        return jdbc.query(claimUnknown, MAPPER, owner, lease.toMillis() / 1000.0, limit,
                StoredText.clean("reconciliation claimed by " + owner));
    }

    /** The call with this id, if it still exists. */
    public Optional<ToolCall> findById(long id) {
        return jdbc.query(byId, MAPPER, id).stream().findFirst();
    }

    /**
     * Up to {@code limit} calls in a state, oldest first (operator views).
     *
     * @param tenants only these tenants' calls; null for every tenant
     */
    public List<ToolCall> inState(CallState state, String[] tenants, int limit) {
        return jdbc.query(inState, MAPPER, state.name(), tenants, tenants, limit);
    }

    /** What a purged call's tombstone says (state, external id, when), if the scope was purged. */
    public Optional<String> tombstone(CallScope scope) {
        return jdbc.queryForList(tombstone, String.class, scope.tenantId(), scope.tool(), scope.operation(),
                scope.idempotencyKey()).stream().findFirst();
    }

    /** Records a remark or an operator action against a call without changing it. */
    public void note(ToolCall call, String detail) {
        recordHistory(call.id(), call.fence(), call.state(), call.state(), detail);
    }

    /**
     * Records evidence that the call's effect exists (a late {@code Applied}) without changing its state: the call's
     * {@code evidence_of_effect} fact ({@link ToolCall.Facts#evidenceOfEffect}, which e.g. refuses an operator's
     * retry) and the evidence in its history.
     */
    public void noteEvidence(ToolCall call, String detail) {
        jdbc.update(noteEvidence, call.id(), call.fence(), call.state().name(), call.state().name(),
                StoredText.clean(EVIDENCE + detail));
    }

    /** Time since the call was first claimed, in database time; empty before its first claim. */
    public Optional<Duration> sinceFirstAttempt(ToolCall call) {
        return secondsAgo(sinceFirstAttempt, call.id());
    }

    /**
     * Time since the call last became UNKNOWN, in database time (its recovery time once it is final); empty if it
     * never was UNKNOWN.
     */
    public Optional<Duration> sinceUnknown(long callId) {
        return secondsAgo(sinceUnknown, callId);
    }

    /** A query of one call answering seconds (or null) as a duration; empty when there is no such time. */
    private Optional<Duration> secondsAgo(String sql, long callId) {
        List<Double> secs = jdbc.queryForList(sql, Double.class, callId);
        return secs.stream().filter(java.util.Objects::nonNull).findFirst()
                .map(s -> Duration.ofMillis(Math.round(s * 1000)));
    }

    /** A compensation call waiting for its original, with the compensation's scope. */
    public record HeldCompensation(long id, CallScope scope) {
    }

    /** An original under compensation and the state of its compensation call. */
    public record CompensatingOriginal(CallScope original, CallState compensationState) {
    }

    /**
     * Holds a just-planned compensation back from the dispatcher; must run in the transaction that planned it.
     *
     * @return false when the call is no longer an unclaimed plan (nothing changed)
     */
    public boolean holdCompensation(long callId) {
        return jdbc.update(holdCompensation, callId) == 1;
    }

    /** Makes a held compensation due now. @return false when it was not held (released already) */
    public boolean releaseCompensation(long callId) {
        return jdbc.update(releaseCompensation, callId) == 1;
    }

    /** Up to {@code limit} held compensations, oldest first. */
    public List<HeldCompensation> heldCompensations(int limit) {
        return jdbc.query(heldCompensations, (rs, i) -> new HeldCompensation(rs.getLong(1),
                new CallScope(rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5))), limit);
    }

    /** Up to {@code limit} originals in COMPENSATING whose compensation committed or failed finally. */
    public List<CompensatingOriginal> settledCompensations(int limit) {
        return jdbc.query(settledCompensations, (rs, i) -> new CompensatingOriginal(
                new CallScope(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)),
                CallState.valueOf(rs.getString(5))), limit);
    }

    /**
     * Purges up to {@code limit} calls terminal for longer than {@code retention}, leaving a tombstone each, in one
     * statement (docs/protocol.md §13). Calls of open tasks stay.
     *
     * @return how many calls went
     */
    public int purgeTerminal(Duration retention, int limit) {
        return jdbc.update(purgeTerminal, retention.toMillis() / 1000.0, limit);
    }

    private void recordHistory(long callId, long fence, CallState from, CallState to, String detail) {
        jdbc.update(history, callId, fence, from == null ? null : from.name(), to.name(), StoredText.clean(detail));
    }


    private static final RowMapper<ToolCall> MAPPER = ToolCallStore::map;

    private static ToolCall map(ResultSet rs, int row) throws SQLException {
        CallScope scope = new CallScope(rs.getString("tenant_id"), rs.getString("tool"), rs.getString("operation"),
                rs.getString("idempotency_key"));
        Timestamp terminal = rs.getTimestamp("terminal_at");
        return new ToolCall(rs.getLong("id"), scope, new ProviderKey(rs.getString("provider_key")),
                new RequestHash(rs.getString("request_hash")), rs.getString("arguments"),
                CallState.valueOf(rs.getString("state")), rs.getLong("fence"), rs.getLong("call_version"),
                rs.getInt("attempts"), rs.getString("external_object_id"), rs.getString("result"),
                rs.getString("error_code"), rs.getString("error_message"), rs.getString("task_id"),
                rs.getString("step_id"), rs.getString("intent_message_id"), rs.getString("traceparent"),
                terminal == null ? null : terminal.toInstant(), new ToolCall.Facts(CallKind.valueOf(rs.getString("kind")),
                rs.getBoolean("effect_possible"), rs.getInt("lookup_failures"), rs.getBoolean("evidence_of_effect")));
    }

}
