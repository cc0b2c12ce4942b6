package dev.toolonce.sandbox.ledger;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The store of effects, the sandbox's ground truth. Both writes must run inside the caller's
 * transaction: {@link #recordRequest} upserts and thereby row-locks the identity until that
 * transaction ends, which serialises concurrent requests for one identity.
 */
public class EffectLedger {

    static final String RECORD_REQUEST = """
            INSERT INTO sandbox.effect AS e
                   (tool, operation, effect_key, scope, op_id, request_count, fences, first_at, last_at)
            VALUES (:tool, :operation, :key, :scope, :opId, 1,
                    array_remove(ARRAY[CAST(:fence AS bigint)], NULL), clock_timestamp(), clock_timestamp())
            ON CONFLICT (tool, operation, effect_key) DO UPDATE
               SET request_count = e.request_count + 1,
                   fences = e.fences || EXCLUDED.fences,
                   scope = coalesce(e.scope, EXCLUDED.scope),
                   op_id = coalesce(e.op_id, EXCLUDED.op_id),
                   last_at = EXCLUDED.last_at
            """;

    static final String RECORD_APPLIED = """
            UPDATE sandbox.effect
               SET applied_count = applied_count + 1,
                   external_object_id = coalesce(external_object_id, :objectId),
                   last_applied_at = clock_timestamp()
             WHERE tool = :tool AND operation = :operation AND effect_key = :key
            """;

    static final String LIST = """
            SELECT tool, operation, effect_key, scope, op_id, external_object_id,
                   applied_count, request_count, fences, first_at, last_at
              FROM sandbox.effect
             WHERE (CAST(:tool AS text) IS NULL OR tool = :tool)
               AND (CAST(:opIdPrefix AS text) IS NULL OR starts_with(op_id, :opIdPrefix))
             ORDER BY first_at, tool, operation, effect_key
            """;

    private final JdbcClient jdbc;

    public EffectLedger(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Counts one more request for {@code identity} and locks its row; call inside a transaction. */
    public void recordRequest(EffectIdentity identity, RequestMarks marks) {
        jdbc.sql(RECORD_REQUEST)
                .param("tool", identity.tool())
                .param("operation", identity.operation())
                .param("key", identity.effectKey())
                .param("scope", marks.scope(), Types.VARCHAR)
                .param("opId", marks.opId(), Types.VARCHAR)
                .param("fence", marks.fence(), Types.BIGINT)
                .update();
    }

    /**
     * Counts one real application of the effect; call after {@link #recordRequest} in the same
     * transaction. The first object id is kept: a later one is a duplicate, visible in the count.
     */
    public void recordApplied(EffectIdentity identity, String objectId) {
        int rows = jdbc.sql(RECORD_APPLIED)
                .param("tool", identity.tool())
                .param("operation", identity.operation())
                .param("key", identity.effectKey())
                .param("objectId", objectId)
                .update();
        if (rows != 1) {
            throw new IllegalStateException("recordApplied before recordRequest for " + identity);
        }
    }

    /**
     * @param tool       only this tool's effects, or all when null
     * @param opIdPrefix only effects whose opId starts with it, or all when null
     */
    public List<EffectRecord> list(String tool, String opIdPrefix) {
        return jdbc.sql(LIST).param("tool", tool, Types.VARCHAR).param("opIdPrefix", opIdPrefix, Types.VARCHAR)
                .query(EffectLedger::toRecord).list();
    }

    private static EffectRecord toRecord(ResultSet rs, int row) throws SQLException {
        return new EffectRecord(rs.getString("tool"), rs.getString("operation"), rs.getString("effect_key"),
                rs.getString("scope"), rs.getString("op_id"), rs.getString("external_object_id"),
                rs.getInt("applied_count"), rs.getInt("request_count"), fences(rs.getArray("fences")),
                rs.getObject("first_at", OffsetDateTime.class), rs.getObject("last_at", OffsetDateTime.class));
    }

    private static List<Long> fences(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((Long[]) array.getArray());
    }
}
