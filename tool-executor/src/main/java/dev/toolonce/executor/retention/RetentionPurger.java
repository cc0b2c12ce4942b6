package dev.toolonce.executor.retention;

import java.time.Duration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * docs/protocol.md §13: purges terminal calls by the time they became terminal, in batches, leaving a
 * tombstone (hash, status, external id) — never a call of a task its agent reports open ({@link TaskHolds}); purges inbox rows past retention and relayed outbox rows.
 */
public final class RetentionPurger {
    private static final String PURGE_CALLS = """
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
    private static final String PURGE_INBOX = """
            DELETE FROM %1$s.inbox_message
             WHERE ctid IN (SELECT ctid FROM %1$s.inbox_message
                             WHERE received_at < clock_timestamp() - make_interval(secs => ?) LIMIT ?)
            """;
    /** Outbox rows have left through the WAL when they commit; the rows themselves are only kept for inspection. */
    private static final String PURGE_OUTBOX = """
            DELETE FROM %1$s.outbox_event
             WHERE id IN (SELECT id FROM %1$s.outbox_event
                           WHERE created_at < clock_timestamp() - make_interval(secs => ?) LIMIT ?)
            """;

    private final JdbcTemplate jdbc;
    private final String purgeCalls;
    private final String purgeInbox;
    private final String purgeOutbox;
    private final Duration retention;
    private final Duration outboxKeep;
    private final int batch;

    public RetentionPurger(JdbcTemplate jdbc, String schema, Duration retention, Duration outboxKeep, int batch) {
        this.jdbc = jdbc;
        this.purgeCalls = PURGE_CALLS.formatted(schema);
        this.purgeInbox = PURGE_INBOX.formatted(schema);
        this.purgeOutbox = PURGE_OUTBOX.formatted(schema);
        this.retention = retention;
        this.outboxKeep = outboxKeep;
        this.batch = batch;
    }

    /** One batch of each; returns how many rows went, so a caller can loop until it reaches 0. */
    public int purgeOnce() {
        double secs = retention.toMillis() / 1000.0;
        return jdbc.update(purgeCalls, secs, batch) + jdbc.update(purgeInbox, secs, batch)
                + jdbc.update(purgeOutbox, outboxKeep.toMillis() / 1000.0, batch);
    }
}
