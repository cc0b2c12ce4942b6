package dev.toolonce.bench.e2e;

import dev.toolonce.bench.BenchTarget;
import dev.toolonce.bench.report.Hops;
import dev.toolonce.bench.stats.Latencies;
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

    /**
     * Segments of each answered step of a load, in microseconds, from the step's and its call's timestamps
     * ({@code clock_timestamp()} of one database): written → planned → started → terminal → answered.
     *
     * <p>The call is found by its scope ({@code tool_call_scope}, the executor's unique key), one index lookup per
     * step. Joined on task and step alone, the planner (which estimates one row for the {@code LIKE} prefix) scanned
     * the tenant's calls once per step: quadratic, minutes of a core once a tenant held 25,000 steps.
     */
    private static final String HOPS = """
            SELECT (extract(epoch FROM c.created_at - s.created_at) * 1000000)::bigint,
                   (extract(epoch FROM c.started_at - c.created_at) * 1000000)::bigint,
                   (extract(epoch FROM c.terminal_at - c.started_at) * 1000000)::bigint,
                   (extract(epoch FROM s.updated_at - c.terminal_at) * 1000000)::bigint
              FROM agent.agent_step s
              JOIN executor.tool_call c
                ON c.tenant_id = s.tenant_id AND c.tool = s.tool AND c.operation = s.operation
               AND c.idempotency_key = s.idempotency_key AND c.task_id = s.task_id AND c.step_id = s.step_id
             WHERE s.tenant_id = ? AND s.task_id LIKE ? AND s.status <> 'PENDING'
               AND c.started_at IS NOT NULL AND c.terminal_at IS NOT NULL
            """;
    /** A report query never outlives its bench: past this, the segments are left out and the bench goes on. */
    private static final int REPORT_QUERY_SECONDS = 60;

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

    /**
     * @return the answered steps' latency by segment; null when there is none or the executor's ledger cannot be read
     *         here (the agent and the executor in different databases)
     */
    Hops hops(String taskPrefix) {
        Latencies[] segments = {new Latencies(), new Latencies(), new Latencies(), new Latencies()};
        try (Connection c = target.connect(); PreparedStatement ps = c.prepareStatement(HOPS)) {
            ps.setQueryTimeout(REPORT_QUERY_SECONDS);
            ps.setString(1, tenant);
            ps.setString(2, taskPrefix + "%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    for (int i = 0; i < segments.length; i++) {
                        segments[i].add(rs.getLong(i + 1));
                    }
                }
            }
            c.commit();
        } catch (SQLException e) {
            System.out.printf("    (no latency by segment: %s)%n", e.getMessage());
            return null;
        }
        if (segments[0].count() == 0) {
            return null;
        }
        return new Hops(segments[0].summary(), segments[1].summary(), segments[2].summary(), segments[3].summary());
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
