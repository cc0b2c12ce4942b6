package dev.toolonce.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

/**
 * Where the stack under test is: what {@code ./toolonce env} prints, the directory of its PID files, and
 * PIDs given explicitly (the system tests start services that have no PID file).
 *
 * @param pgUrl          JDBC URL of the services' database (user {@code postgres}, no password)
 * @param kafkaBootstrap Kafka bootstrap servers
 * @param relayUrl       base URL of the outbox relay ({@code /relay/stats})
 * @param runDir         directory of {@code <component>.pid} files; may not exist
 * @param pids           component name → PID, overriding the PID files
 * @param authorization  the {@code Authorization} header for the relay's statistics (an admin token: the bench
 *                       resets them); null when none was found
 */
public record BenchTarget(String pgUrl, String kafkaBootstrap, String relayUrl, Path runDir, Map<String, Long> pids,
                          String authorization) {

    /** A new connection with auto-commit off: every caller commits its own transactions. */
    public Connection connect() throws SQLException {
        Connection c = DriverManager.getConnection(pgUrl, "postgres", "");
        c.setAutoCommit(false);
        return c;
    }
}
