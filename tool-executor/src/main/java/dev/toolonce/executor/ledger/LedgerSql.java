package dev.toolonce.executor.ledger;

import dev.toolonce.core.call.CallKind;
import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import dev.toolonce.jdbc.SqlNames;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.jdbc.core.RowMapper;

/**
 * The ledger's statements for one schema. Each statement is declared once, as a constant of the store that runs it
 * (where {@code SqlTransitionsTest} reads its declared move), with {@code %1$s} for the schema and {@code %2$s} for
 * the call's columns; {@link #of} formats it the first time it runs and keeps it.
 */
final class LedgerSql {
    /** The columns of {@code tool_call} that make a {@link ToolCall}. */
    static final String COLUMNS = """
            id, tenant_id, tool, operation, idempotency_key, provider_key, request_hash, arguments, state, fence,
            call_version, attempts, external_object_id, result, error_code, error_message, task_id, step_id,
            intent_message_id, traceparent, terminal_at, kind, effect_possible, lookup_failures, evidence_of_effect""";

    private final String schema;
    private final Map<String, String> formatted = new ConcurrentHashMap<>();

    /** @param schema validated by {@link SqlNames#schema} */
    LedgerSql(String schema) {
        this.schema = SqlNames.schema(schema);
    }

    /** The statement for this schema. */
    String of(String statement) {
        return formatted.computeIfAbsent(statement, s -> s.formatted(schema, COLUMNS));
    }

    /** Reads a row of {@link #COLUMNS} as a call. */
    static final RowMapper<ToolCall> CALL = LedgerSql::map;

    private static ToolCall map(ResultSet rs, int row) throws SQLException {
        CallScope scope = new CallScope(rs.getString("tenant_id"), rs.getString("tool"), rs.getString("operation"),
                rs.getString("idempotency_key"));
        Timestamp terminal = rs.getTimestamp("terminal_at");
        return new ToolCall(rs.getLong("id"), scope, new ProviderKey(rs.getString("provider_key")),
                new RequestHash(rs.getString("request_hash")), rs.getString("arguments"),
                CallState.valueOf(rs.getString("state")), rs.getLong("fence"), rs.getLong("call_version"),
                rs.getInt("attempts"), rs.getString("external_object_id"), rs.getString("result"),
                rs.getString("error_code"), rs.getString("error_message"), rs.getString("task_id"),
                rs.getString("step_id"), rs.getString("intent_message_id"), rs.getString("traceparent"),
                terminal == null ? null : terminal.toInstant(),
                new ToolCall.Facts(CallKind.valueOf(rs.getString("kind")), rs.getBoolean("effect_possible"),
                        rs.getInt("lookup_failures"), rs.getBoolean("evidence_of_effect")));
    }
}
