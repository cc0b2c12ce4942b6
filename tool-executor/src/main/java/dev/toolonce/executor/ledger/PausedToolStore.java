package dev.toolonce.executor.ledger;

import dev.toolonce.jdbc.SqlNames;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The {@code paused_tool} table and its one writer (docs/adapters.md §6): a tool whose credentials were refused
 * (401/403) is paused — for one tenant when it was that tenant's own credential, for every tenant ({@value
 * #EVERY_TENANT}) when it was the shared one — and the claims of {@link ToolCallStore} skip a call whose tool is
 * paused for its tenant or for {@value #EVERY_TENANT} (it stays PLANNED, FAILED_RETRYABLE or UNKNOWN, nothing is
 * lost) until an operator resumes that pause. Pausing twice keeps the first reason. Also writes {@code
 * tool_resume_audit}, in the statement that resumes.
 */
public final class PausedToolStore {
    /** The tenant of a pause that holds every tenant's calls. */
    public static final String EVERY_TENANT = "*";
    private static final Pattern TENANT = Pattern.compile("\\*|[A-Za-z0-9._-]{1,64}");

    private static final String PAUSE = """
            INSERT INTO %s.paused_tool (tool, tenant_id, reason) VALUES (?, ?, ?) ON CONFLICT (tool, tenant_id) DO NOTHING
            """;
    /** Resumes and audits in one statement: the audit row exists exactly when the resume was attempted. */
    private static final String RESUME = """
            WITH gone AS (DELETE FROM %1$s.paused_tool WHERE tool = ? AND tenant_id = ? RETURNING reason)
            INSERT INTO %1$s.tool_resume_audit (tool, tenant_id, principal, was_paused, reason)
            SELECT ?, ?, ?, EXISTS (SELECT 1 FROM gone), (SELECT reason FROM gone)
            RETURNING was_paused
            """;
    private static final String RESUMES = """
            SELECT tool, tenant_id, principal, was_paused, reason, at::text AS at FROM %s.tool_resume_audit
             WHERE CAST(? AS text[]) IS NULL OR tenant_id = '*' OR tenant_id = ANY(CAST(? AS text[]))
             ORDER BY id DESC LIMIT ?
            """;
    private static final String LIST = """
            SELECT tool, tenant_id, reason, paused_at::text AS paused_at FROM %s.paused_tool
             WHERE CAST(? AS text[]) IS NULL OR tenant_id = '*' OR tenant_id = ANY(CAST(? AS text[]))
             ORDER BY tool, tenant_id
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

    /**
     * Pauses {@code tool} for {@code tenant}; idempotent. Runs in the caller's transaction.
     *
     * @param tenant a tenant id, or {@value #EVERY_TENANT}
     * @throws IllegalArgumentException for a tenant that is neither
     */
    public void pause(String tool, String tenant, String reason) {
        jdbc.update(pause, tool, checked(tenant), reason);
    }

    /**
     * Resumes the pause of {@code tool} for {@code tenant} — that pause only: resuming a tenant leaves a pause of
     * {@value #EVERY_TENANT} in place, and the other way round — and records who asked ({@code tool_resume_audit}),
     * whether or not it was paused.
     *
     * @param tenant    a tenant id, or {@value #EVERY_TENANT}
     * @param principal the authenticated principal
     * @return whether that pause existed (false: it did not, or another resume won)
     * @throws IllegalArgumentException for a tenant that is neither
     */
    public boolean resume(String tool, String tenant, String principal) {
        String t = checked(tenant);
        return Boolean.TRUE.equals(jdbc.queryForObject(resume, Boolean.class, tool, t, tool, t, principal));
    }

    /**
     * The latest {@code limit} resumes, newest first ({@code tool}, {@code tenant_id}, {@code principal},
     * {@code was_paused}, …): those of {@code tenants} and of {@value #EVERY_TENANT}.
     *
     * @param tenants the tenants whose resumes to list; null for every tenant's
     */
    public List<Map<String, Object>> resumes(String[] tenants, int limit) {
        return jdbc.queryForList(resumes, tenants, tenants, limit);
    }

    /**
     * The pauses with tenant, reason and time ({@code tool}, {@code tenant_id}, {@code reason}, {@code paused_at}), by
     * tool and tenant: those of {@code tenants} and those of {@value #EVERY_TENANT}, which hold theirs too.
     *
     * @param tenants the tenants whose pauses to list; null for every tenant's
     */
    public List<Map<String, Object>> paused(String[] tenants) {
        return jdbc.queryForList(list, tenants, tenants);
    }

    private static String checked(String tenant) {
        if (tenant == null || !TENANT.matcher(tenant).matches()) {
            throw new IllegalArgumentException("tenant must be '*' or 1-64 characters of [A-Za-z0-9._-], was "
                    + tenant);
        }
        return tenant;
    }
}
