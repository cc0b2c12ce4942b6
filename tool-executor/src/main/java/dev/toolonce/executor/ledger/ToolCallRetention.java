package dev.toolonce.executor.ledger;

import java.time.Duration;
import org.springframework.jdbc.core.JdbcTemplate;

/** The purge of the ledger's terminal calls (docs/protocol.md §13); the inbox and outbox have their own stores. */
public final class ToolCallRetention {
    /**
     * docs/protocol.md §13: deletes terminal calls by the time they became terminal, oldest first, and writes their
     * tombstones in the same statement — never a call of a task its agent reports open ({@code task_hold}, read
     * here, written by {@link TaskHoldStore}). The history goes with its call (ON DELETE CASCADE).
     */
    private static final String PURGE_TERMINAL = """
            WITH gone AS (
                DELETE FROM %1$s.tool_call
                 WHERE id IN (SELECT c.id FROM %1$s.tool_call c
                               WHERE c.terminal_at < (SELECT clock_timestamp() - make_interval(secs => ?))
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
    private final LedgerSql sql;

    public ToolCallRetention(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        this.sql = new LedgerSql(schema);
    }

    /**
     * Purges up to {@code limit} calls terminal for longer than {@code retention}, leaving a tombstone each, in one
     * statement (docs/protocol.md §13). Calls of open tasks stay.
     *
     * @return how many calls went
     */
    public int purgeTerminal(Duration retention, int limit) {
        return jdbc.update(sql.of(PURGE_TERMINAL), retention.toMillis() / 1000.0, limit);
    }
}
