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
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The ledger's calls as intake and completion see them: plan a call, read it, move it out of a state by a guarded
 * {@link Move} ({@link #finish}), note remarks and evidence in its history. The ledger is {@code tool_call}, each call's
 * history in {@code tool_call_attempt} — despite the table's name, one row per transition or note, not per attempt
 * (docs/protocol.md §4) — and the tombstones of purged calls in {@code tool_call_tombstone} (§13); docs/protocol.md
 * §20 lists every table's store. The ledger's other statements are split by what they serve: claims and leases
 * ({@link ToolCallClaims}), compensation holds ({@link ToolCallCompensations}) and the purge ({@link
 * ToolCallRetention}). Every state change is a guarded update on {@code (id, state, fence)} that reports whether it
 * won; times are the database's {@code clock_timestamp()}, never the host's. Text that may come from a tool (external
 * id, result, error message, history details) is stored without NUL ({@link StoredText}), so that no answer can make a
 * completion fail on every retry. Each statement is declared once, as a constant, and formatted for the schema by
 * {@link LedgerSql}.
 */
public final class ToolCallStore {
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
    /**
     * {@link #INSERT_PLANNED} for a whole intake batch in one statement, in the batch's order: of two calls of one
     * scope in a batch the first is planned and the second conflicts with it, as in two statements. The first {@code
     * most} calls that may start at once — not a compensation (held until its original is COMPENSATING, §17), its
     * tool not paused for its tenant or for every tenant — are planned and claimed in the same statement (docs/
     * protocol.md §6, "Claimed by intake"): written STARTED with fence 1, one attempt and a lease, with the claim's
     * history row, exactly as {@link ToolCallClaims#claimByIds} would leave them. A call whose insert conflicts takes
     * its place among the first {@code most} all the same, and that place is left unused.
     */
    @SqlTransition(from = {}, to = CallState.PLANNED, then = CallState.STARTED)
    private static final String INSERT_ALL_PLANNED = """
            WITH v AS (
                SELECT u.*, u.kind <> 'COMPENSATION'
                            AND NOT EXISTS (SELECT 1 FROM %1$s.paused_tool p
                                             WHERE p.tool = u.tool AND p.tenant_id IN ('*', u.tenant_id)) AS startable
                  FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                              ?::text[], ?::text[], ?::text[], ?::text[]) WITH ORDINALITY
                       AS u (tenant_id, tool, operation, idempotency_key, provider_key, request_hash, arguments, task_id,
                             step_id, intent_message_id, traceparent, kind, n)
            ), s AS (
                SELECT v.*, v.startable AND count(*) FILTER (WHERE v.startable) OVER (ORDER BY v.n) <= ?::int AS start
                  FROM v
            ), planned AS (
                INSERT INTO %1$s.tool_call (tenant_id, tool, operation, idempotency_key, provider_key, request_hash,
                    arguments, state, task_id, step_id, intent_message_id, traceparent, kind, fence, attempts,
                    lease_owner, lease_expires_at, started_at)
                SELECT s.tenant_id, s.tool, s.operation, s.idempotency_key, s.provider_key, s.request_hash, s.arguments,
                       CASE WHEN s.start THEN 'STARTED' ELSE 'PLANNED' END, s.task_id, s.step_id, s.intent_message_id,
                       s.traceparent, s.kind, CASE WHEN s.start THEN 1 ELSE 0 END, CASE WHEN s.start THEN 1 ELSE 0 END,
                       CASE WHEN s.start THEN ?::text END,
                       CASE WHEN s.start THEN clock_timestamp() + make_interval(secs => ?::float8) END,
                       CASE WHEN s.start THEN clock_timestamp() END
                  FROM s
                 WHERE NOT EXISTS (SELECT 1 FROM %1$s.tool_call_tombstone t
                                    WHERE t.tenant_id = s.tenant_id AND t.tool = s.tool AND t.operation = s.operation
                                      AND t.idempotency_key = s.idempotency_key)
                 ORDER BY s.n
                ON CONFLICT (tenant_id, tool, operation, idempotency_key) DO NOTHING
                RETURNING %2$s
            ), noted AS (
                INSERT INTO %1$s.tool_call_attempt (call_id, fence, from_state, to_state, detail)
                SELECT id, fence, NULL, 'STARTED', ? FROM planned WHERE state = 'STARTED'
            )
            SELECT %2$s FROM planned
            """;
    /** {@link #PURGED_MEANWHILE} for the calls a batch planned: the ids of those whose scope was purged meanwhile. */
    private static final String PURGED_MEANWHILE_ALL = """
            SELECT c.id FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[])
                   AS c (id, tenant_id, tool, operation, idempotency_key)
             WHERE EXISTS (SELECT 1 FROM %1$s.tool_call_tombstone t
                            WHERE t.tenant_id = c.tenant_id AND t.tool = c.tool AND t.operation = c.operation
                              AND t.idempotency_key = c.idempotency_key)
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
    /**
     * {@link #FINISH} for a group of calls in one statement, each row of the arrays one guarded move: the rows are
     * locked in ascending id order first (the order of the lease heartbeat, docs/protocol.md §19), then each call
     * moves if, and only if, it is still in its {@code from} state with its fence, and its ledger note is written
     * only if it moved. Only for groups of distinct calls.
     */
    @SqlTransition.Parameters(checkedBy = "finishAll")
    private static final String FINISH_ALL = """
            WITH v AS (
                SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::int[], ?::text[], ?::text[],
                                     ?::text[], ?::text[], ?::text[], ?::boolean[], ?::int[], ?::float8[], ?::boolean[],
                                     ?::text[])
                       AS v (v_id, v_fence, v_from, v_to, v_version_step, v_external_object_id, v_result, v_error_class,
                             v_error_code, v_error_message, v_effect_possible, v_lookup_failed, v_retry_secs,
                             v_terminal, v_detail)
            ), locked AS (
                SELECT c.id FROM %1$s.tool_call c JOIN v ON c.id = v.v_id
                 ORDER BY c.id
                   FOR NO KEY UPDATE OF c
            ), moved AS (
                UPDATE %1$s.tool_call c
                   SET state = v.v_to, call_version = c.call_version + v.v_version_step,
                       external_object_id = coalesce(v.v_external_object_id, c.external_object_id),
                       result = coalesce(v.v_result, c.result), error_class = v.v_error_class,
                       error_code = v.v_error_code, error_message = v.v_error_message,
                       effect_possible = v.v_effect_possible, lookup_failures = c.lookup_failures + v.v_lookup_failed,
                       next_attempt_at = clock_timestamp() + make_interval(secs => v.v_retry_secs),
                       lease_owner = NULL, lease_expires_at = NULL, updated_at = clock_timestamp(),
                       terminal_at = CASE WHEN v.v_terminal THEN clock_timestamp() ELSE c.terminal_at END
                  FROM v
                 WHERE c.id = v.v_id AND c.id IN (SELECT id FROM locked) AND c.state = v.v_from AND c.fence = v.v_fence
                RETURNING %2$s, v.v_from, v.v_detail
            ), noted AS (
                INSERT INTO %1$s.tool_call_attempt (call_id, fence, from_state, to_state, detail)
                SELECT id, fence, v_from, state, v_detail FROM moved
            )
            SELECT %2$s FROM moved
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
    /**
     * Undoes a plan inserted in the current transaction that raced a purge — PLANNED, or STARTED by that same insert
     * (fence 1, its history row going with it) — and never a call claimed again since.
     */
    private static final String DISCARD_PLANNED = """
            DELETE FROM %1$s.tool_call WHERE id = ? AND state IN ('PLANNED', 'STARTED') AND fence <= 1
            """;
    private static final String HISTORY = """
            INSERT INTO %1$s.tool_call_attempt (call_id, fence, from_state, to_state, detail)
            VALUES (?, ?, ?, ?, ?)
            """;

    private final JdbcTemplate jdbc;
    private final LedgerSql sql;

    public ToolCallStore(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        this.sql = new LedgerSql(schema);
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
        List<ToolCall> rows = jdbc.query(sql.of(INSERT_PLANNED), LedgerSql.CALL, s.tenantId(), s.tool(), s.operation(),
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
        Integer purged = jdbc.queryForObject(sql.of(PURGED_MEANWHILE), Integer.class, s.tenantId(), s.tool(), s.operation(),
                s.idempotencyKey());
        if (purged != null && purged > 0) {
            jdbc.update(sql.of(DISCARD_PLANNED), call.id());
            return Optional.empty();
        }
        return Optional.of(call);
    }

    /**
     * Calls a plan may start at once (docs/protocol.md §6, "Claimed by intake"): at most {@code most}, each claimed for
     * {@code owner} with a lease of {@code lease} in database time. {@link #NONE}: every call is only planned.
     */
    public record Starting(int most, String owner, Duration lease) {
        public static final Starting NONE = new Starting(0, "", Duration.ZERO);
    }

    /**
     * {@link #insertPlanned} for many calls in two statements whatever their number (docs/protocol.md §19): per call,
     * in the order given, the PLANNED call, or empty when its scope already had a call (perhaps one planned earlier
     * in this list) or was purged. Each call's {@code intentMessageId} must be unique in the list. The first {@code
     * starting.most()} calls that may start at once are planned STARTED instead (see {@link #INSERT_ALL_PLANNED};
     * {@link Starting#NONE} for none); the state of each call returned says which.
     */
    public List<Optional<ToolCall>> insertAllPlanned(List<NewCall> newCalls, Starting starting) {
        if (newCalls.isEmpty()) {
            return List.of();
        }
        List<ToolCall> rows = jdbc.query(con -> {
            var ps = con.prepareStatement(sql.of(INSERT_ALL_PLANNED));
            List<Function<NewCall, String>> columns = List.of(c -> c.scope().tenantId(),
                    c -> c.scope().tool(), c -> c.scope().operation(), c -> c.scope().idempotencyKey(),
                    c -> c.providerKey().value(), c -> c.requestHash().value(), NewCall::argumentsJson, NewCall::taskId,
                    NewCall::stepId, NewCall::intentMessageId, NewCall::traceparent,
                    c -> CallKind.of(c.scope().operation()).name());
            for (int i = 0; i < columns.size(); i++) {
                ps.setArray(i + 1, con.createArrayOf("text", newCalls.stream().map(columns.get(i)).toArray()));
            }
            ps.setInt(columns.size() + 1, starting.most());
            ps.setString(columns.size() + 2, starting.owner());
            ps.setDouble(columns.size() + 3, starting.lease().toMillis() / 1000.0);
            ps.setString(columns.size() + 4, StoredText.clean("claimed by " + starting.owner() + " at intake"));
            return ps;
        }, LedgerSql.CALL);
        Set<Long> purged = rows.isEmpty() ? Set.of() : purgedMeanwhile(rows);
        Map<String, ToolCall> byIntent = new HashMap<>();
        for (ToolCall call : rows) {
            if (purged.contains(call.id())) {
                jdbc.update(sql.of(DISCARD_PLANNED), call.id()); // as insertPlanned: undone, nobody saw it
            } else {
                byIntent.put(call.intentMessageId(), call);
            }
        }
        return newCalls.stream().map(c -> Optional.ofNullable(byIntent.get(c.intentMessageId()))).toList();
    }

    /** The ids of fresh plans whose scope a purge tombstoned meanwhile (see insertPlanned), in one statement. */
    private Set<Long> purgedMeanwhile(List<ToolCall> planned) {
        return new HashSet<>(jdbc.query(con -> {
            var ps = con.prepareStatement(sql.of(PURGED_MEANWHILE_ALL));
            ps.setArray(1, con.createArrayOf("int8", planned.stream().map(ToolCall::id).toArray()));
            ps.setArray(2, con.createArrayOf("text", planned.stream().map(c -> c.scope().tenantId()).toArray()));
            ps.setArray(3, con.createArrayOf("text", planned.stream().map(c -> c.scope().tool()).toArray()));
            ps.setArray(4, con.createArrayOf("text", planned.stream().map(c -> c.scope().operation()).toArray()));
            ps.setArray(5, con.createArrayOf("text", planned.stream().map(c -> c.scope().idempotencyKey()).toArray()));
            return ps;
        }, (rs, i) -> rs.getLong(1)));
    }

    /**
     * Reads a scope's call and holds a share lock until the transaction ends, so that a completion cannot
     * slip between this read and the caller's decision.
     */
    public Optional<ToolCall> findForShare(CallScope scope) {
        return jdbc.query(sql.of(FIND_FOR_SHARE), LedgerSql.CALL, scope.tenantId(), scope.tool(), scope.operation(),
                scope.idempotencyKey()).stream().findFirst();
    }

    /** Reads a scope's call without locking. */
    public Optional<ToolCall> find(CallScope scope) {
        return jdbc.query(sql.of(FIND), LedgerSql.CALL, scope.tenantId(), scope.tool(), scope.operation(),
                scope.idempotencyKey()).stream().findFirst();
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
        String detail = detail(f);
        List<ToolCall> rows = jdbc.query(sql.of(FINISH), LedgerSql.CALL, f.to().name(), f.newOutcome() ? 1 : 0,
                StoredText.clean(f.externalObjectId()), StoredText.cleanJson(f.resultJson()), f.errorClass(),
                StoredText.clean(f.errorCode()), StoredText.clean(f.errorMessage()), f.effectPossible(),
                f.lookupFailed() ? 1 : 0, retrySecs,
                f.to().isTerminal(), call.id(), from.name(), call.fence(), from.name(), StoredText.clean(detail));
        return rows.stream().findFirst();
    }

    /** One guarded move for {@link #finishAll}: {@code call} out of {@code from} as {@code move} says. */
    public record Finish(ToolCall call, CallState from, Move move) {
    }

    /**
     * Several guarded moves in the caller's transaction, each made as {@link #finish} makes it, in ascending id
     * order whatever the order given. Every statement that locks several calls' rows takes them in that order (the
     * lease heartbeat does; claims and the sweep skip locked rows), so a group of finishes and a heartbeat over the
     * same calls wait for each other instead of deadlocking.
     *
     * @return per finish, in the order given, the updated call or empty when its guard was lost
     */
    public List<Optional<ToolCall>> finishAll(List<Finish> finishes) {
        finishes.forEach(f -> Transitions.check(f.from(), f.move().to()));
        if (finishes.size() == 1) {
            Finish f = finishes.get(0);
            return List.of(finish(f.call(), f.from(), f.move()));
        }
        if (finishes.stream().map(f -> f.call().id()).distinct().count() < finishes.size()) {
            // Two moves of one call: one after the other, the second then meets the first's state.
            List<Optional<ToolCall>> done = new ArrayList<>(Collections.nCopies(finishes.size(), Optional.empty()));
            IntStream.range(0, finishes.size()).boxed()
                    .sorted(Comparator.comparingLong(i -> finishes.get(i).call().id()))
                    .forEach(i -> done.set(i, finish(finishes.get(i).call(), finishes.get(i).from(), finishes.get(i).move())));
            return done;
        }
        Map<Long, ToolCall> moved = new HashMap<>();
        jdbc.query(con -> {
            var ps = con.prepareStatement(sql.of(FINISH_ALL));
            List<Function<Finish, Object>> columns = List.of(f -> f.call().id(), f -> f.call().fence(),
                    f -> f.from().name(), f -> f.move().to().name(), f -> f.move().newOutcome() ? 1 : 0,
                    f -> StoredText.clean(f.move().externalObjectId()), f -> StoredText.cleanJson(f.move().resultJson()),
                    f -> f.move().errorClass(), f -> StoredText.clean(f.move().errorCode()),
                    f -> StoredText.clean(f.move().errorMessage()), f -> f.move().effectPossible(),
                    f -> f.move().lookupFailed() ? 1 : 0,
                    f -> f.move().dueIn() == null ? 0.0 : f.move().dueIn().toMillis() / 1000.0,
                    f -> f.move().to().isTerminal(), f -> StoredText.clean(detail(f.move())));
            List<String> types = List.of("int8", "int8", "text", "text", "int4", "text", "text", "text", "text", "text",
                    "bool", "int4", "float8", "bool", "text");
            for (int i = 0; i < columns.size(); i++) {
                ps.setArray(i + 1, con.createArrayOf(types.get(i), finishes.stream().map(columns.get(i)).toArray()));
            }
            return ps;
        }, LedgerSql.CALL).forEach(c -> moved.put(c.id(), c));
        return finishes.stream().map(f -> Optional.ofNullable(moved.get(f.call().id()))).toList();
    }

    /** The ledger note of a move: its error, or else the external id it recorded. */
    private static String detail(Move f) {
        return f.errorCode() == null ? f.externalObjectId() : f.errorCode() + ": " + f.errorMessage();
    }

    /** The call with this id, if it still exists. */
    public Optional<ToolCall> findById(long id) {
        return jdbc.query(sql.of(BY_ID), LedgerSql.CALL, id).stream().findFirst();
    }

    /**
     * Up to {@code limit} calls in a state, oldest first (operator views).
     *
     * @param tenants only these tenants' calls; null for every tenant
     */
    public List<ToolCall> inState(CallState state, String[] tenants, int limit) {
        return jdbc.query(sql.of(IN_STATE), LedgerSql.CALL, state.name(), tenants, tenants, limit);
    }

    /** What a purged call's tombstone says (state, external id, when), if the scope was purged. */
    public Optional<String> tombstone(CallScope scope) {
        return jdbc.queryForList(sql.of(TOMBSTONE), String.class, scope.tenantId(), scope.tool(), scope.operation(),
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
        jdbc.update(sql.of(NOTE_EVIDENCE), call.id(), call.fence(), call.state().name(), call.state().name(),
                StoredText.clean(EVIDENCE + detail));
    }

    /** Time since the call was first claimed, in database time; empty before its first claim. */
    public Optional<Duration> sinceFirstAttempt(ToolCall call) {
        return secondsAgo(sql.of(SINCE_FIRST_ATTEMPT), call.id());
    }

    /**
     * Time since the call last became UNKNOWN, in database time (its recovery time once it is final); empty if it
     * never was UNKNOWN.
     */
    public Optional<Duration> sinceUnknown(long callId) {
        return secondsAgo(sql.of(SINCE_UNKNOWN), callId);
    }

    /** A query of one call answering seconds (or null) as a duration; empty when there is no such time. */
    private Optional<Duration> secondsAgo(String sql, long callId) {
        List<Double> secs = jdbc.queryForList(sql, Double.class, callId);
        return secs.stream().filter(java.util.Objects::nonNull).findFirst()
                .map(s -> Duration.ofMillis(Math.round(s * 1000)));
    }

    private void recordHistory(long callId, long fence, CallState from, CallState to, String detail) {
        jdbc.update(sql.of(HISTORY), callId, fence, from == null ? null : from.name(), to.name(), StoredText.clean(detail));
    }
}
