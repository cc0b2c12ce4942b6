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
    /** Resumes and audits in one statement: the audit row exists exactly when the resume was attempted. */
    private static final String RESUME = """
            WITH gone AS (DELETE FROM %1$s.paused_tool WHERE tool = ? RETURNING reason)
            INSERT INTO %1$s.tool_resume_audit (tool, principal, was_paused, reason)
            SELECT ?, ?, EXISTS (SELECT 1 FROM gone), (SELECT reason FROM gone)
            RETURNING was_paused
            """;
    private static final String RESUMES = """
            SELECT tool, principal, was_paused, reason, at::text AS at FROM %s.tool_resume_audit ORDER BY id DESC LIMIT ?
            """;
    private static final String LIST = """
            SELECT tool, reason, paused_at::text AS paused_at FROM %s.paused_tool ORDER BY tool
            """;

    private final JdbcTemplate jdbc;
    private final String pause;
    private final String resume;
    private final String list;
    private final String resumes;

    public PausedToolStore(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        String s = SqlNames.schema(schema);
        this.pause = PAUSE.formatted(s);
        this.resume = RESUME.formatted(s);
        this.list = LIST.formatted(s);
        this.resumes = RESUMES.formatted(s);
    }

    /** Pauses {@code tool}; idempotent. Runs in the caller's transaction. */
    public void pause(String tool, String reason) {
        jdbc.update(pause, tool, reason);
    }

    /**
     * Resumes {@code tool} and records who asked ({@code tool_resume_audit}), whether or not it was paused.
     *
     * @param principal the authenticated principal
     * @return whether the tool was paused (false: it was not, or another resume won)
     */
    public boolean resume(String tool, String principal) {
        return Boolean.TRUE.equals(jdbc.queryForObject(resume, Boolean.class, tool, tool, principal));
    }

    /** The latest {@code limit} resumes, newest first ({@code tool}, {@code principal}, {@code was_paused}, …). */
    public List<Map<String, Object>> resumes(int limit) {
        return jdbc.queryForList(resumes, limit);
    }

    /** The paused tools with reason and time ({@code tool}, {@code reason}, {@code paused_at}), by tool name. */
    public List<Map<String, Object>> paused() {
        return jdbc.queryForList(list);
    }
}
