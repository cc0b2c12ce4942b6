package dev.toolonce.bench.e2e;

import dev.toolonce.bench.BenchTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Waits until the executor has no call of the bench's tenant in flight ({@code PLANNED} or {@code STARTED}
 * in {@code executor.tool_call}), so that one phase's tail does not load the next phase.
 */
public final class StackIdle {
    private static final String IN_FLIGHT = """
            SELECT count(*) FROM executor.tool_call WHERE tenant_id = ? AND state IN ('PLANNED', 'STARTED')
            """;

    private final BenchTarget target;
    private final String tenant;

    public StackIdle(BenchTarget target, String tenant) {
        this.target = target;
        this.tenant = tenant;
    }

    /** @return calls still in flight when {@code timeout} ran out (0 when idle) */
    public long await(Duration timeout) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Connection c = target.connect(); PreparedStatement ps = c.prepareStatement(IN_FLIGHT)) {
            ps.setString(1, tenant);
            while (true) {
                long inFlight;
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    inFlight = rs.getLong(1);
                }
                c.commit();
                if (inFlight == 0 || System.nanoTime() > deadline) {
                    return inFlight;
                }
                Thread.sleep(200);
            }
        }
    }
}
