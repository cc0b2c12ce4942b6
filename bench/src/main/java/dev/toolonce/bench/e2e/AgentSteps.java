package dev.toolonce.bench.e2e;

import dev.toolonce.bench.BenchTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads (never writes) the agent's steps of one bench load: how many the result consumer has not answered
 * yet, and when it answered each ({@code updated_at}, set by the consumer with {@code clock_timestamp()}).
 */
final class AgentSteps {
    private static final String PENDING = """
            SELECT count(*) FROM agent.agent_step WHERE tenant_id = ? AND task_id LIKE ? AND status = 'PENDING'
            """;
    private static final String ANSWERED = """
            SELECT task_id, status, (extract(epoch FROM updated_at) * 1000000)::bigint
              FROM agent.agent_step WHERE tenant_id = ? AND task_id LIKE ? AND status <> 'PENDING'
            """;

    /** @param status the step's status; @param updatedMicros when the consumer answered, epoch microseconds */
    record Answer(String status, long updatedMicros) {
    }

    private final BenchTarget target;
    private final String tenant;

    AgentSteps(BenchTarget target, String tenant) {
        this.target = target;
        this.tenant = tenant;
    }

    /** Waits until no step of {@code taskPrefix} is pending or {@code timeout} ran out. @return steps still pending */
    long awaitAnswered(String taskPrefix, Duration timeout) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long nextPrint = System.nanoTime() + 2_000_000_000L;
        try (Connection c = target.connect(); PreparedStatement ps = c.prepareStatement(PENDING)) {
            ps.setString(1, tenant);
            ps.setString(2, taskPrefix + "%");
            while (true) {
                long pending;
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    pending = rs.getLong(1);
                }
                c.commit();
                if (pending == 0 || System.nanoTime() > deadline) {
                    return pending;
                }
                if (System.nanoTime() > nextPrint) {
                    System.out.printf("    steps pending: %d%n", pending);
                    nextPrint += 2_000_000_000L;
                }
                Thread.sleep(250);
            }
        }
    }

    /** @return task id → answer, for every answered step of {@code taskPrefix} */
    Map<String, Answer> answers(String taskPrefix) throws SQLException {
        Map<String, Answer> answers = new HashMap<>();
        try (Connection c = target.connect(); PreparedStatement ps = c.prepareStatement(ANSWERED)) {
            ps.setString(1, tenant);
            ps.setString(2, taskPrefix + "%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    answers.put(rs.getString(1), new Answer(rs.getString(2), rs.getLong(3)));
                }
            }
            c.commit();
        }
        return answers;
    }
}
