package dev.toolonce.bench.probe;

import dev.toolonce.bench.BenchTarget;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A schema of the bench's own holding copies of {@code agent.agent_step} and {@code agent.outbox_event}
 * ({@code LIKE … INCLUDING ALL}: columns, defaults, keys, indexes), so that the commit probe writes rows of
 * exactly the shape the agent writes while no publication includes them: the relay never sees them and
 * no topic receives them. Dropped on {@link #close()}.
 */
final class ScratchSchema implements AutoCloseable {
    private final BenchTarget target;
    private final String name;

    ScratchSchema(BenchTarget target, String runId) throws SQLException {
        this.target = target;
        this.name = "bench_probe_" + runId.replaceAll("[^a-z0-9]", "");
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + name);
            s.execute("CREATE TABLE " + name + ".agent_step (LIKE agent.agent_step INCLUDING ALL)");
            s.execute("CREATE TABLE " + name + ".outbox_event (LIKE agent.outbox_event INCLUDING ALL)");
            c.commit();
        }
    }

    String name() {
        return name;
    }

    @Override
    public void close() throws SQLException {
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
            c.commit();
        }
    }
}
