package dev.toolonce.jdbc;

import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Duplicates that arrived while their call was in flight (docs/protocol.md §15): recorded at intake and
 * answered, then removed, in the transaction that completes the call.
 */
public final class PendingReplyStore {
    private static final String ADD = """
            INSERT INTO %s.pending_reply (call_id, intent_message_id, task_id, step_id) VALUES (?, ?, ?, ?)
            ON CONFLICT (call_id, intent_message_id) DO NOTHING
            """;
    private static final String TAKE = """
            DELETE FROM %s.pending_reply WHERE call_id = ? RETURNING intent_message_id, task_id, step_id
            """;

    /** Where a waiting duplicate's answer goes. */
    public record PendingReply(String intentMessageId, String taskId, String stepId) {
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
        jdbc.update(add, callId, reply.intentMessageId(), reply.taskId(), reply.stepId());
    }

    /** Removes and returns every waiting duplicate of a call, in the caller's transaction. */
    public List<PendingReply> take(long callId) {
        return jdbc.query(take, (rs, i) -> new PendingReply(rs.getString(1), rs.getString(2), rs.getString(3)), callId);
    }
}
