package dev.toolonce.executor.ledger;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Compensation holds (docs/protocol.md §17): these statements write only {@code held} of a compensation nobody claimed
 * yet — it holds the compensation back from the dispatcher until its original may be undone, and a release makes it
 * due now — and find the originals whose compensation ended. None changes a state; those moves go through {@link
 * ToolCallStore#finish}.
 */
public final class ToolCallCompensations {
    /**
     * Compensations (docs/protocol.md §17) write only {@code held} of a compensation nobody claimed yet: it holds the
     * compensation back from the dispatcher until its original may be undone, and a release makes it due now. Neither
     * changes a state; those moves go through {@link #finish}.
     */
    private static final String HOLD_COMPENSATION = """
            UPDATE %s.tool_call SET held = true
             WHERE id = ? AND state = 'PLANNED' AND fence = 0 AND kind = 'COMPENSATION'
            """;
    private static final String RELEASE_COMPENSATION = """
            UPDATE %s.tool_call SET held = false, next_attempt_at = clock_timestamp(), updated_at = clock_timestamp()
             WHERE id = ? AND held
            """;
    private static final String HELD_COMPENSATIONS = """
            SELECT id, tenant_id, tool, operation, idempotency_key FROM %s.tool_call
             WHERE held
             ORDER BY id LIMIT ?
            """;
    /** Originals under compensation whose compensation call has an outcome that settles them. */
    private static final String SETTLED_COMPENSATIONS = """
            SELECT o.tenant_id, o.tool, o.operation, o.idempotency_key, c.state
              FROM %1$s.tool_call o
              JOIN %1$s.tool_call c ON c.tenant_id = o.tenant_id AND c.tool = o.tool
                                   AND c.operation = o.operation || '.compensate'
                                   AND c.idempotency_key = o.idempotency_key AND c.kind = 'COMPENSATION'
             WHERE o.state = 'COMPENSATING' AND c.state IN ('COMMITTED', 'FAILED_FINAL')
             ORDER BY o.id LIMIT ?
            """;

    private final JdbcTemplate jdbc;
    private final LedgerSql sql;

    public ToolCallCompensations(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        this.sql = new LedgerSql(schema);
    }

    /** A compensation call waiting for its original, with the compensation's scope. */
    public record HeldCompensation(long id, CallScope scope) {
    }

    /** An original under compensation and the state of its compensation call. */
    public record CompensatingOriginal(CallScope original, CallState compensationState) {
    }

    /**
     * Holds a just-planned compensation back from the dispatcher; must run in the transaction that planned it.
     *
     * @return false when the call is no longer an unclaimed plan (nothing changed)
     */
    public boolean holdCompensation(long callId) {
        return jdbc.update(sql.of(HOLD_COMPENSATION), callId) == 1;
    }

    /** Makes a held compensation due now. @return false when it was not held (released already) */
    public boolean releaseCompensation(long callId) {
        return jdbc.update(sql.of(RELEASE_COMPENSATION), callId) == 1;
    }

    /** Up to {@code limit} held compensations, oldest first. */
    public List<HeldCompensation> heldCompensations(int limit) {
        return jdbc.query(sql.of(HELD_COMPENSATIONS), (rs, i) -> new HeldCompensation(rs.getLong(1),
                new CallScope(rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5))), limit);
    }

    /** Up to {@code limit} originals in COMPENSATING whose compensation committed or failed finally. */
    public List<CompensatingOriginal> settledCompensations(int limit) {
        return jdbc.query(sql.of(SETTLED_COMPENSATIONS), (rs, i) -> new CompensatingOriginal(
                new CallScope(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)),
                CallState.valueOf(rs.getString(5))), limit);
    }
}
