package dev.toolonce.system;

import java.time.Duration;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The negative control of {@link ClaimRaceIT}: a check-then-act claim with no state guard and no row lock —
 * exactly what {@code ToolCallStore#claim} exists to prevent. It lives in test sources because no service may
 * ever claim this way.
 */
final class UnguardedClaim {
    /** One claimed call as the race reports it. */
    record Won(long id, long fence) {
    }

    private static final String DUE = """
            SELECT id FROM executor.tool_call WHERE state IN ('PLANNED', 'FAILED_RETRYABLE') ORDER BY id LIMIT ?
            """;
    private static final String TAKE = """
            UPDATE executor.tool_call SET state = 'STARTED', fence = fence + 1, attempts = attempts + 1,
                   lease_owner = ?, lease_expires_at = clock_timestamp() + make_interval(secs => ?)
             WHERE id = ?
            RETURNING id, fence
            """;

    private final JdbcTemplate jdbc;

    UnguardedClaim(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Reads due ids, waits {@code window} to widen the gap between check and act, then takes each one by id. */
    List<Won> claim(String owner, int limit, Duration lease, Duration window) throws InterruptedException {
        List<Long> due = jdbc.queryForList(DUE, Long.class, limit);
        Thread.sleep(window.toMillis());
        return due.stream().flatMap(id -> jdbc.query(TAKE, (rs, i) -> new Won(rs.getLong(1), rs.getLong(2)),
                owner, lease.toMillis() / 1000.0, id).stream()).toList();
    }
}
