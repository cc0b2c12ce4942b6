package dev.toolonce.executor.ledger;

import dev.toolonce.jdbc.SqlNames;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code review_audit}: one row per operator resolution of a call in review (docs/protocol.md §16), written in the
 * transaction of the resolution's guarded move, so a resolution and its audit row commit together or not at all.
 * Append-only.
 */
public final class ReviewAuditStore {
    private static final String RECORD = """
            INSERT INTO %s.review_audit (call_id, scope, action, external_id, operator, note, fence)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """;

    private static final String LIST = """
            SELECT id, scope, action, external_id, operator, note, fence, at::text AS at FROM %s.review_audit
             WHERE CAST(? AS text[]) IS NULL OR split_part(scope, '/', 1) = ANY(CAST(? AS text[]))
             ORDER BY id DESC LIMIT ?
            """;

    private final JdbcTemplate jdbc;
    private final String record;
    private final String list;

    public ReviewAuditStore(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        String s = SqlNames.schema(schema);
        this.record = RECORD.formatted(s);
        this.list = LIST.formatted(s);
    }

    /**
     * Records a resolution in the caller's transaction; not idempotent (each call writes a row).
     *
     * @param action     {@code commit}, {@code retry}, {@code fail} or {@code compensate} (the table checks it)
     * @param externalId the id the operator gave; nullable
     * @param note       nullable
     * @param fence      the call's fence when it was resolved
     */
    public void record(long callId, String scope, String action, String externalId, String operator, String note,
                       long fence) {
        jdbc.update(record, callId, scope, action, externalId, operator, note, fence);
    }

    /**
     * The latest {@code limit} resolutions, newest first.
     *
     * @param tenants only resolutions of these tenants' calls (the scope's first segment); null for every tenant
     */
    public List<Map<String, Object>> list(String[] tenants, int limit) {
        return jdbc.queryForList(list, tenants, tenants, limit);
    }
}
