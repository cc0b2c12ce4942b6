package dev.toolonce.jdbc;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The compensation-specific reads and the hold of {@code tool_call} (docs/protocol.md §17). It changes no call's
 * state: state moves go through {@link ToolCallStore#finish} and its transition check. What it writes is only
 * {@code next_attempt_at} of a compensation that has not been claimed yet — {@code 'infinity'} holds it back from
 * the dispatcher until its original is {@code COMPENSATING}, and a release makes it due now.
 */
public final class CompensationStore {
    /** A compensation call waiting for its original, with the original's scope. */
    public record Held(long id, CallScope scope) {
    }

    /** An original under compensation and the state of its compensation call. */
    public record Pair(CallScope original, CallState compensationState) {
    }

    private static final String HOLD = """
            UPDATE %s.tool_call SET next_attempt_at = 'infinity'
             WHERE id = ? AND state = 'PLANNED' AND fence = 0
            """;
    private static final String RELEASE = """
            UPDATE %s.tool_call SET next_attempt_at = clock_timestamp(), updated_at = clock_timestamp()
             WHERE id = ? AND state = 'PLANNED' AND next_attempt_at = 'infinity'
            """;
    private static final String HELD = """
            SELECT id, tenant_id, tool, operation, idempotency_key FROM %s.tool_call
             WHERE state = 'PLANNED' AND next_attempt_at = 'infinity'
             ORDER BY id LIMIT ?
            """;
    /** Originals under compensation whose compensation call has an outcome that settles them. */
    private static final String SETTLED = """
            SELECT o.tenant_id, o.tool, o.operation, o.idempotency_key, c.state
              FROM %1$s.tool_call o
              JOIN %1$s.tool_call c ON c.tenant_id = o.tenant_id AND c.tool = o.tool
                                   AND c.operation = o.operation || '.compensate'
                                   AND c.idempotency_key = o.idempotency_key
             WHERE o.state = 'COMPENSATING' AND c.state IN ('COMMITTED', 'FAILED_FINAL')
             ORDER BY o.id LIMIT ?
            """;

    private final JdbcTemplate jdbc;
    private final String hold;
    private final String release;
    private final String held;
    private final String settled;

    public CompensationStore(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        String s = SqlNames.schema(schema);
        this.hold = HOLD.formatted(s);
        this.release = RELEASE.formatted(s);
        this.held = HELD.formatted(s);
        this.settled = SETTLED.formatted(s);
    }

    /** Holds a just-planned compensation back from the dispatcher; must run in the transaction that planned it. */
    public boolean hold(long callId) {
        return jdbc.update(hold, callId) == 1;
    }

    /** Makes a held compensation due now. @return false when it was not held (released already) */
    public boolean release(long callId) {
        return jdbc.update(release, callId) == 1;
    }

    /** Up to {@code limit} held compensations, oldest first. */
    public List<Held> held(int limit) {
        return jdbc.query(held, (rs, i) -> new Held(rs.getLong(1),
                new CallScope(rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5))), limit);
    }

    /** Up to {@code limit} originals in COMPENSATING whose compensation committed or failed finally. */
    public List<Pair> settled(int limit) {
        return jdbc.query(settled, (rs, i) -> new Pair(
                new CallScope(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)),
                CallState.valueOf(rs.getString(5))), limit);
    }
}
