package dev.toolonce.executor.ledger;

import dev.toolonce.jdbc.SqlNames;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Duplicates that arrived while their call was in flight (docs/protocol.md §15): recorded at intake and
 * answered, then removed, in the transaction that completes the call.
 */
public final class PendingReplyStore {
    private static final String ADD = """
            INSERT INTO %s.pending_reply (call_id, intent_message_id, task_id, step_id, traceparent)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (call_id, intent_message_id) DO NOTHING
            """;
    private static final String TAKE = """
            DELETE FROM %s.pending_reply WHERE call_id = ANY (?)
            RETURNING call_id, intent_message_id, task_id, step_id, traceparent
            """;

    /** Where a waiting duplicate's answer goes, and the trace it arrived with ({@code traceparent} nullable). */
    public record PendingReply(String intentMessageId, String taskId, String stepId, String traceparent) {
    }

    private final JdbcTemplate jdbc;
    private final String add;
    private final String take;

    public PendingReplyStore(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        String s = SqlNames.schema(schema);
        this.add = ADD.formatted(s);
        this.take = TAKE.formatted(s);
    }

    /** Records a waiting duplicate; idempotent per (call, intent message). */
    public void add(long callId, PendingReply reply) {
        jdbc.update(add, callId, reply.intentMessageId(), reply.taskId(), reply.stepId(), reply.traceparent());
    }

    /** Removes and returns every waiting duplicate of a call, in the caller's transaction. */
    public List<PendingReply> take(long callId) {
        return takeAll(List.of(callId)).getOrDefault(callId, List.of());
    }

    /**
     * Removes and returns the waiting duplicates of many calls in one statement, in the caller's transaction.
     *
     * @return the replies by call id; calls nobody waits for are absent
     */
    public Map<Long, List<PendingReply>> takeAll(Collection<Long> callIds) {
        if (callIds.isEmpty()) {
            return Map.of();
        }
        Map<Long, List<PendingReply>> byCall = new HashMap<>();
        jdbc.query(con -> {
            var ps = con.prepareStatement(take);
            ps.setArray(1, con.createArrayOf("bigint", callIds.toArray()));
            return ps;
        }, rs -> {
            byCall.computeIfAbsent(rs.getLong(1), id -> new ArrayList<>())
                    .add(new PendingReply(rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)));
        });
        return byCall;
    }
}
