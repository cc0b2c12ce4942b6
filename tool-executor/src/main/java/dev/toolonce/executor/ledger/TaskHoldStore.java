package dev.toolonce.executor.ledger;

import dev.toolonce.jdbc.SqlNames;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code task_hold} (docs/protocol.md §13): whether the agent reports a task open, one row per task, the newest
 * {@code version} winning, so that a redelivered or reordered task event cannot reopen a closed task or close an
 * open one early. {@link ToolCallStore#purgeTerminal} reads it and keeps every call of an open task.
 */
public final class TaskHoldStore {
    private static final String UPSERT = """
            INSERT INTO %s.task_hold AS h (tenant_id, task_id, version, open) VALUES (?, ?, ?, ?)
            ON CONFLICT (tenant_id, task_id) DO UPDATE
               SET version = EXCLUDED.version, open = EXCLUDED.open, updated_at = clock_timestamp()
             WHERE h.version < EXCLUDED.version
            """;

    private final JdbcTemplate jdbc;
    private final String upsert;

    public TaskHoldStore(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        String s = SqlNames.schema(schema);
        this.upsert = UPSERT.formatted(s);
    }

    /**
     * Records a task's state if {@code version} is newer than what is held. Idempotent.
     *
     * @return whether it changed the row (false: an equal or newer version is held)
     */
    public boolean apply(String tenantId, String taskId, long version, boolean isOpen) {
        return jdbc.update(upsert, tenantId, taskId, version, isOpen) == 1;
    }
}
