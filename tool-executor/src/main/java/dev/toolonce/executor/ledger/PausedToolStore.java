package dev.toolonce.executor.ledger;

import dev.toolonce.jdbc.SqlNames;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The {@code paused_tool} table and its one writer (docs/adapters.md §6): a tool whose credentials were refused
 * (401/403) is paused, and the claims of {@link ToolCallStore} skip its calls (they stay PLANNED, FAILED_RETRYABLE
 * or UNKNOWN, nothing is lost) until an operator resumes it. Pausing twice keeps the first reason.
 */
public final class PausedToolStore {
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

    public PausedToolStore(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        String s = SqlNames.schema(schema);
        this.pause = PAUSE.formatted(s);
        this.resume = RESUME.formatted(s);
        this.list = LIST.formatted(s);
    }

    /** Pauses {@code tool}; idempotent. Runs in the caller's transaction. */
    public void pause(String tool, String reason) {
        jdbc.update(pause, tool, reason);
    }

    /** @return whether the tool was paused (false: it was not, or another resume won) */
    public boolean resume(String tool) {
        return jdbc.update(resume, tool) > 0;
    }

    /** The paused tools with reason and time ({@code tool}, {@code reason}, {@code paused_at}), by tool name. */
    public List<Map<String, Object>> paused() {
        return jdbc.queryForList(list);
    }
}
