package dev.toolonce.executor.pause;

import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The {@code paused_tool} table: a tool whose credentials were refused (401/403) is paused, and the
 * dispatcher's claim skips its calls (they stay PLANNED or FAILED_RETRYABLE, nothing is lost) until an
 * operator resumes it. Pausing twice keeps the first reason.
 */
public final class ToolPauses {
    private static final String PAUSE = """
            INSERT INTO %s.paused_tool (tool, reason) VALUES (?, ?) ON CONFLICT (tool) DO NOTHING
            """;
    private static final String RESUME = """
            DELETE FROM %s.paused_tool WHERE tool = ?
            """;
    private static final String LIST = """
            SELECT tool, reason, paused_at::text AS paused_at FROM %s.paused_tool ORDER BY tool
            """;

    private final JdbcTemplate jdbc;
    private final String pause;
    private final String resume;
    private final String list;

    /** @param schema the executor's schema, already checked by {@code ToolCallStore} */
    public ToolPauses(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        this.pause = PAUSE.formatted(schema);
        this.resume = RESUME.formatted(schema);
        this.list = LIST.formatted(schema);
    }

    /** Pauses {@code tool}; idempotent. Runs in the caller's transaction. */
    public void pause(String tool, String reason) {
        jdbc.update(pause, tool, reason);
    }

    /** @return whether the tool was paused */
    public boolean resume(String tool) {
        return jdbc.update(resume, tool) > 0;
    }

    /** The paused tools with reason and time. */
    public List<Map<String, Object>> paused() {
        return jdbc.queryForList(list);
    }
}
