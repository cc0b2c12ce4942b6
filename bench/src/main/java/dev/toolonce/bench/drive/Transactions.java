package dev.toolonce.bench.drive;

import dev.toolonce.bench.BenchTarget;
import java.sql.Connection;
import java.sql.SQLException;

/** {@link PacedLoad.Worker}s that each own one database connection for the whole run. */
public final class Transactions {
    private Transactions() {
    }

    /** One unit of work on the worker's connection; it commits itself (so it can time the commit). */
    @FunctionalInterface
    public interface Unit {
        void run(Connection connection, long seq) throws Exception;
    }

    /**
     * @return a worker with a new connection (auto-commit off), closed with the worker
     * @throws IllegalStateException when the database cannot be reached
     */
    public static PacedLoad.Worker worker(BenchTarget target, Unit unit) {
        Connection c;
        try {
            c = target.connect();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to " + target.pgUrl(), e);
        }
        return new PacedLoad.Worker() {
            @Override
            public void once(long seq) throws Exception {
                unit.run(c, seq);
            }

            @Override
            public void close() throws SQLException {
                c.close();
            }
        };
    }
}
