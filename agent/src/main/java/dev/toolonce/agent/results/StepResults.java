package dev.toolonce.agent.results;

import dev.toolonce.messaging.IsolatingBatchProcessor;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.InputBounds;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.jdbc.core.ArgumentPreparedStatementSetter;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Applies a result event to the agent's step (docs/protocol.md §15) by {@link ResultRule}: only a newer
 * {@code callVersion} of the same scope changes a step, a REJECTED answer changes only the step whose own intent it
 * answers, and a {@code MESSAGE_ID_REUSED} rejection never does. Every result is also logged with whether it was
 * applied and, when not, the rule's reason.
 */
public final class StepResults {
    /**
     * The row of a call whose intent is being published, with the part of its task's step it is ({@link StepPart}):
     * one row per call, so per wire step id and key. A re-publication of the same intent (a resume) adds only its
     * message id, so that a rejection answering it answers the call's own intent.
     */
    private static final String OPEN = """
            INSERT INTO %s.agent_step (task_id, step_id, tenant_id, tool, operation, idempotency_key, intent_message_id,
                part, task_step_id, intent_message_ids, request_hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ARRAY[CAST(? AS text)], ?)
            ON CONFLICT (tenant_id, task_id, step_id, idempotency_key) DO UPDATE
               SET intent_message_ids = agent_step.intent_message_ids || EXCLUDED.intent_message_id
             WHERE NOT EXCLUDED.intent_message_id = ANY(agent_step.intent_message_ids)
            """;
    /**
     * {@link #OPEN} for several calls in one statement, each a row of the arrays; only for calls of distinct steps (an
     * insert that met its own earlier row would fail).
     */
    private static final String OPEN_ALL = """
            INSERT INTO %s.agent_step (task_id, step_id, tenant_id, tool, operation, idempotency_key, intent_message_id,
                part, task_step_id, intent_message_ids, request_hash)
            SELECT v.task_id, v.step_id, v.tenant_id, v.tool, v.operation, v.idempotency_key, v.intent_message_id,
                   v.part, v.task_step_id, ARRAY[v.intent_message_id], v.request_hash
              FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                          ?::text[], ?::text[])
                   AS v (task_id, step_id, tenant_id, tool, operation, idempotency_key, intent_message_id, part,
                         task_step_id, request_hash)
            ON CONFLICT (tenant_id, task_id, step_id, idempotency_key) DO UPDATE
               SET intent_message_ids = agent_step.intent_message_ids || EXCLUDED.intent_message_id
             WHERE NOT EXCLUDED.intent_message_id = ANY(agent_step.intent_message_ids)
            """;
    /** {@link #OPEN} that changes nothing on a conflict: the probe of {@link #stepInFlight}, always rolled back. */
    private static final String PROBE = """
            INSERT INTO %s.agent_step (task_id, step_id, tenant_id, tool, operation, idempotency_key, intent_message_id,
                part, task_step_id, intent_message_ids, request_hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ARRAY[CAST(? AS text)], ?)
            ON CONFLICT (tenant_id, task_id, step_id, idempotency_key) DO NOTHING
            """;
    /**
     * The one guarded write of a result, {@link ResultRule} on the locked row: clause 2 ({@code call_version < ?}) and
     * clause 3 (the first boolean is {@link ResultRule#needsOwnIntent}: the result answers one of the messages the
     * call's intent was published under); clause 1 is decided before, in Java. An external id or a result once known
     * stays known: a later answer without one (a review, a compensation of the call) does not erase it.
     */
    private static final String APPLY = """
            UPDATE %s.agent_step
               SET status = ?, call_version = ?, external_object_id = coalesce(?, external_object_id),
                   result = coalesce(?, result), error_code = ?, error_message = ?,
                   result_message_id = ?, updated_at = clock_timestamp()
             WHERE task_id = ? AND step_id = ?
               AND tenant_id = ? AND tool = ? AND operation = ? AND idempotency_key = ?
               AND call_version < ?
               AND (NOT ? OR CAST(? AS text) = ANY(intent_message_ids))
            """;
    /**
     * {@link #APPLY} for many results in one statement, each a row of the arrays; it answers the ordinals of the
     * results that changed their step. Only for results that name distinct steps: two rows of one step would change
     * it once, not one after the other.
     */
    private static final String APPLY_ALL = """
            UPDATE %s.agent_step s
               SET status = v.status, call_version = v.call_version,
                   external_object_id = coalesce(v.external_object_id, s.external_object_id),
                   result = coalesce(v.result, s.result), error_code = v.error_code, error_message = v.error_message,
                   result_message_id = v.result_message_id, updated_at = clock_timestamp()
              FROM unnest(?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                          ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::boolean[], ?::text[]) WITH ORDINALITY
                   AS v (status, call_version, external_object_id, result, error_code, error_message, result_message_id,
                         task_id, step_id, tenant_id, tool, operation, idempotency_key, needs_own_intent,
                         intent_message_id, n)
             WHERE s.task_id = v.task_id AND s.step_id = v.step_id
               AND s.tenant_id = v.tenant_id AND s.tool = v.tool AND s.operation = v.operation
               AND s.idempotency_key = v.idempotency_key
               AND s.call_version < v.call_version
               AND (NOT v.needs_own_intent OR v.intent_message_id = ANY(s.intent_message_ids))
            RETURNING v.n
            """;
    /** {@link #LOG} for many results in one statement. */
    private static final String LOG_ALL = """
            INSERT INTO %s.step_result_log (result_message_id, intent_message_id, task_id, step_id, status,
                call_version, applied, reason)
            SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::boolean[],
                                 ?::text[])
            ON CONFLICT (result_message_id) DO NOTHING
            """;
    private static final String STEP_VISIBLE = """
            SELECT count(*) FROM %s.agent_step WHERE tenant_id = ? AND task_id = ? AND step_id = ? AND idempotency_key = ?
            """;
    /** The step a result names, when the guarded write refused it: what the log's reason is decided on. */
    private static final String SCOPED_STEP = """
            SELECT call_version, CAST(? AS text) = ANY(intent_message_ids) AS own_intent FROM %s.agent_step
             WHERE task_id = ? AND step_id = ? AND tenant_id = ? AND tool = ? AND operation = ? AND idempotency_key = ?
            """;
    private static final String LOG = """
            INSERT INTO %s.step_result_log (result_message_id, intent_message_id, task_id, step_id, status,
                call_version, applied, reason)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (result_message_id) DO NOTHING
            """;

    private static final String DEAD_LETTERED = """
            INSERT INTO %s.step_result_log (result_message_id, intent_message_id, task_id, step_id, status,
                call_version, applied, reason, dead_lettered, kafka_coordinates)
            VALUES (?, ?, ?, ?, ?, ?, false, ?, true, ?)
            ON CONFLICT (result_message_id) DO NOTHING
            """;

    private final JdbcTemplate jdbc;
    private final String open;
    private final String openAll;
    private final String probe;
    private final String apply;
    private final String applyAll;
    private final String logAll;
    private final String stepVisible;
    private final String scopedStep;
    private final String log;
    private final String deadLettered;
    /** Shared (it is thread-safe): a store is also built per publish by {@code IntentPublisher}. */
    private static final EventCodec CODEC = new EventCodec();

    public StepResults(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        this.open = OPEN.formatted(schema);
        this.openAll = OPEN_ALL.formatted(schema);
        this.probe = PROBE.formatted(schema);
        this.apply = APPLY.formatted(schema);
        this.applyAll = APPLY_ALL.formatted(schema);
        this.logAll = LOG_ALL.formatted(schema);
        this.stepVisible = STEP_VISIBLE.formatted(schema);
        this.scopedStep = SCOPED_STEP.formatted(schema);
        this.log = LOG.formatted(schema);
        this.deadLettered = DEAD_LETTERED.formatted(schema);
    }

    /**
     * The step row of an intent being published, in the caller's transaction (the publisher's, with the intent's
     * outbox row); the step table's only insert, so that it has one home (docs/protocol.md §20).
     */
    public void open(ToolIntent intent, String intentMessageId) {
        open(intent, intentMessageId, null);
    }

    /**
     * {@link #open(ToolIntent, String)} recording the call's request hash ({@code sha256:…}, as the executor computes
     * it), which an awaitable call asked for again compares its own with ({@code ToolCalls}); null records none.
     */
    public void open(ToolIntent intent, String intentMessageId, String requestHash) {
        jdbc.update(open, openArgs(intent.taskId(), intent.stepId(), intent.tenantId(), intent.tool(),
                intent.operation(), intent.idempotencyKey(), intentMessageId, requestHash));
    }

    /**
     * {@link #open(ToolIntent, String, String)} for several intents (each with its message id set; {@code requestHashes}
     * in the same order) in one statement when they name distinct steps, else one after the other.
     */
    public void openAll(List<ToolIntent> intents, List<String> requestHashes) {
        if (intents.size() < 2 || intents.stream().map(i -> Arrays.asList(i.tenantId(), i.taskId(), i.stepId(),
                i.idempotencyKey())).distinct().count() < intents.size()) {
            for (int i = 0; i < intents.size(); i++) {
                open(intents.get(i), intents.get(i).messageId(), requestHashes.get(i));
            }
            return;
        }
        List<Object[]> rows = new ArrayList<>(intents.size());
        for (int n = 0; n < intents.size(); n++) {
            ToolIntent i = intents.get(n);
            rows.add(openArgs(i.taskId(), i.stepId(), i.tenantId(), i.tool(), i.operation(), i.idempotencyKey(),
                    i.messageId(), requestHashes.get(n)));
        }
        jdbc.update(con -> {
            PreparedStatement ps = con.prepareStatement(openAll);
            for (int c = 0; c < 10; c++) {
                int column = c;
                ps.setArray(c + 1, con.createArrayOf("text", rows.stream().map(r -> r[column]).toArray()));
            }
            return ps;
        });
    }

    private static Object[] openArgs(String taskId, String stepId, String tenantId, String tool, String operation,
                                     String idempotencyKey, String intentMessageId, String requestHash) {
        StepPart part = StepPart.of(operation);
        return new Object[] {taskId, stepId, tenantId, tool, operation, idempotencyKey, intentMessageId, part.name(),
                part.taskStepId(stepId), intentMessageId, requestHash};
    }

    /**
     * Records a result that is being dead-lettered, with whatever can be read of it (control characters
     * replaced, lengths cut), so that the step it answers does not wait silently. Idempotent per record.
     *
     * @param decoded the decoded result, or null when the record could not be decoded
     */
    public void deadLettered(ConsumerRecord<byte[], byte[]> record, ToolResult decoded, String code, String message) {
        JsonNode tree = decoded == null ? leniently(record.value()) : null;
        String messageId = decoded != null ? decoded.messageId() : text(tree, "messageId");
        String coordinates = IsolatingBatchProcessor.coordinates(record);
        String reason = InputBounds.text("dead-lettered " + code + ": " + message
                + (messageId == null ? "" : " (message id " + messageId + ")"), InputBounds.MAX_MESSAGE_CHARS);
        jdbc.update(deadLettered, "dead-letter:" + coordinates,
                id(decoded != null ? decoded.intentMessageId() : text(tree, "intentMessageId")),
                id(decoded != null ? decoded.taskId() : text(tree, "taskId")),
                id(decoded != null ? decoded.stepId() : text(tree, "stepId")),
                id(decoded != null ? decoded.status().name() : text(tree, "status")),
                decoded != null ? Long.valueOf(decoded.callVersion()) : null, reason, coordinates);
    }

    private JsonNode leniently(byte[] value) {
        try {
            return value == null ? null : CODEC.parse(value);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String text(JsonNode tree, String field) {
        JsonNode v = tree == null || !tree.isObject() ? null : tree.get(field);
        return v != null && v.isString() ? v.asString() : null;
    }

    private static String id(String s) {
        return InputBounds.identifier(s, InputBounds.MAX_ID_CHARS);
    }

    /**
     * Must run in the inbox transaction. A result can arrive before its step is visible: logical decoding sends a
     * transaction once its commit is in the WAL, and PostgreSQL makes the commit visible to other sessions a moment
     * later, a moment that a busy machine stretches to tens of milliseconds, enough for a whole round trip through
     * the executor. So a result that changed nothing and finds no step at all (not a stale or misaddressed result,
     * which finds its step and is refused by the guard) waits for any insert of that step still in flight ({@link
     * #stepInFlight}) and is applied once more; only then is it logged as unapplied.
     *
     * @return whether a step changed
     */
    public boolean apply(ToolResult r) {
        boolean named = r.taskId() != null && r.stepId() != null;
        boolean applied = named && update(r);
        if (named && !applied && !stepVisible(r) && stepInFlight(r)) {
            applied = update(r);
        }
        jdbc.update(log, r.messageId(), r.intentMessageId(), r.taskId(), r.stepId(), r.status().name(),
                r.callVersion(), applied, applied ? "applied" : reason(r));
        return applied;
    }

    /**
     * {@link #apply} for the results of a poll batch, in the inbox transaction, with one update and one log insert for
     * the whole batch when every result that could change a step names a different step: each result then changes its
     * step exactly as {@link #apply} would, since no two of them meet on one row. Otherwise the results are applied
     * one after the other. A result that changed nothing takes {@link #apply}'s path for it alone (the wait for a step
     * still in flight, and the reason logged).
     *
     * @return per result, in order, whether a step changed
     */
    public List<Boolean> applyAll(List<ToolResult> results) {
        List<ToolResult> eligible = results.stream().filter(StepResults::couldChangeAStep).toList();
        if (results.size() < 2 || eligible.stream().map(StepResults::stepOf).distinct().count() < eligible.size()) {
            return results.stream().map(this::apply).toList();
        }
        Set<Integer> changed = changedAll(eligible);
        List<Boolean> applied = new ArrayList<>(results.size());
        List<String> reasons = new ArrayList<>(results.size());
        int e = 0;
        for (ToolResult r : results) {
            boolean did = couldChangeAStep(r) && changed.contains(++e);
            if (!did && r.taskId() != null && r.stepId() != null && !stepVisible(r) && stepInFlight(r)) {
                did = update(r);
            }
            applied.add(did);
            reasons.add(did ? "applied" : reason(r));
        }
        logAll(results, applied, reasons);
        return applied;
    }

    private static boolean couldChangeAStep(ToolResult r) {
        return r.taskId() != null && r.stepId() != null && !ResultRule.neverApplies(r.status(), errorCode(r));
    }

    /** The key of the step row a result names. */
    private static List<String> stepOf(ToolResult r) {
        return Arrays.asList(r.tenantId(), r.taskId(), r.stepId(), r.idempotencyKey());
    }

    /** The 1-based positions, among {@code eligible}, of the results that changed their step. */
    private Set<Integer> changedAll(List<ToolResult> eligible) {
        if (eligible.isEmpty()) {
            return Set.of();
        }
        List<Function<ToolResult, Object>> columns = List.of(r -> r.status().name(), ToolResult::callVersion,
                ToolResult::externalObjectId, r -> r.result() == null ? null : r.result().toString(),
                r -> r.error() == null ? null : r.error().code(), r -> r.error() == null ? null : r.error().message(),
                ToolResult::messageId, ToolResult::taskId, ToolResult::stepId, ToolResult::tenantId, ToolResult::tool,
                ToolResult::operation, ToolResult::idempotencyKey, r -> ResultRule.needsOwnIntent(r.status()),
                ToolResult::intentMessageId);
        List<String> types = List.of("text", "int8", "text", "text", "text", "text", "text", "text", "text", "text",
                "text", "text", "text", "bool", "text");
        return new HashSet<>(jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement(applyAll);
            for (int i = 0; i < columns.size(); i++) {
                ps.setArray(i + 1, con.createArrayOf(types.get(i), eligible.stream().map(columns.get(i)).toArray()));
            }
            return ps;
        }, (rs, i) -> rs.getInt(1)));
    }

    private void logAll(List<ToolResult> results, List<Boolean> applied, List<String> reasons) {
        jdbc.update(con -> {
            PreparedStatement ps = con.prepareStatement(logAll);
            ps.setArray(1, con.createArrayOf("text", results.stream().map(ToolResult::messageId).toArray()));
            ps.setArray(2, con.createArrayOf("text", results.stream().map(ToolResult::intentMessageId).toArray()));
            ps.setArray(3, con.createArrayOf("text", results.stream().map(ToolResult::taskId).toArray()));
            ps.setArray(4, con.createArrayOf("text", results.stream().map(ToolResult::stepId).toArray()));
            ps.setArray(5, con.createArrayOf("text", results.stream().map(r -> r.status().name()).toArray()));
            ps.setArray(6, con.createArrayOf("int8", results.stream().map(ToolResult::callVersion).toArray()));
            ps.setArray(7, con.createArrayOf("bool", applied.toArray()));
            ps.setArray(8, con.createArrayOf("text", reasons.toArray()));
            return ps;
        });
    }

    private boolean update(ToolResult r) {
        if (ResultRule.neverApplies(r.status(), errorCode(r))) {
            return false;
        }
        return jdbc.update(apply, r.status().name(),
                r.callVersion(), r.externalObjectId(), r.result() == null ? null : r.result().toString(),
                r.error() == null ? null : r.error().code(), r.error() == null ? null : r.error().message(),
                r.messageId(), r.taskId(), r.stepId(), r.tenantId(), r.tool(), r.operation(), r.idempotencyKey(),
                r.callVersion(), ResultRule.needsOwnIntent(r.status()), r.intentMessageId()) == 1;
    }

    private boolean stepVisible(ToolResult r) {
        Integer n = jdbc.queryForObject(stepVisible, Integer.class, r.tenantId(), r.taskId(), r.stepId(),
                r.idempotencyKey());
        return n != null && n > 0;
    }

    /**
     * Whether the step that {@code r} names exists now, waiting first for any transaction that is inserting it. It
     * tries the step's own insert and undoes it: PostgreSQL makes an insert that meets an uncommitted (or
     * committed but not yet visible) row of the same key wait for that transaction, and then reports the conflict
     * if it committed. The probe runs on the caller's connection, under a savepoint when a transaction is open.
     */
    private boolean stepInFlight(ToolResult r) {
        Boolean exists = jdbc.execute((ConnectionCallback<Boolean>) c -> {
            boolean standalone = c.getAutoCommit();
            Savepoint savepoint = null;
            if (standalone) {
                c.setAutoCommit(false);
            } else {
                savepoint = c.setSavepoint();
            }
            try (PreparedStatement ps = c.prepareStatement(probe)) {
                new ArgumentPreparedStatementSetter(openArgs(r.taskId(), r.stepId(), r.tenantId(), r.tool(),
                        r.operation(), r.idempotencyKey(), r.intentMessageId(), r.requestHash())).setValues(ps);
                return ps.executeUpdate() == 0;
            } catch (SQLException refused) {
                return false; // a result whose scope could not even be a step's (the probe broke a constraint)
            } finally {
                if (standalone) {
                    c.rollback();
                    c.setAutoCommit(true);
                } else {
                    c.rollback(savepoint);
                    c.releaseSavepoint(savepoint);
                }
            }
        });
        return Boolean.TRUE.equals(exists);
    }

    private static String errorCode(ToolResult r) {
        return ResultRule.errorCode(r);
    }

    /** Why a result changed nothing: the rule's verdict on the step it names as the step is now, or no such step. */
    private String reason(ToolResult r) {
        if (r.taskId() == null || r.stepId() == null) {
            return "no step named in the result";
        }
        if (ResultRule.neverApplies(r.status(), errorCode(r))) {
            return ResultRule.Verdict.MESSAGE_ID_REUSED.reason();
        }
        return jdbc.query(scopedStep, (rs, i) -> ResultRule.decide(r, rs.getLong("call_version"),
                        rs.getBoolean("own_intent")), r.intentMessageId(), r.taskId(), r.stepId(), r.tenantId(),
                        r.tool(), r.operation(), r.idempotencyKey())
                .stream().findFirst().map(v -> v == ResultRule.Verdict.APPLY ? "the step appeared or changed meanwhile"
                        : v.reason()).orElse("no step for this scope");
    }
}
