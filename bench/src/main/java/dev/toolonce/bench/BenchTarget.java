package dev.toolonce.bench;

import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.security.kafka.KafkaClientSettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;

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
 * @param kafkaSettings  what every Kafka client of the bench adds to its own settings (security: {@code --kafka-config}
 *                       or {@code TOOLONCE_KAFKA_CONFIG}, docs/security.md §6a)
 * @param keyringFile    the agents' signing keys (docs/security.md §6b)
 */
public record BenchTarget(String pgUrl, String kafkaBootstrap, String relayUrl, Path runDir, Map<String, Long> pids,
                          String authorization, KafkaClientSettings kafkaSettings, Path keyringFile) {

    /**
     * @return the keyring the bench signs its intents with, like any agent
     * @throws IllegalStateException when the file is missing or holds no key with the intent power
     */
    public Keyring keyring() {
        return Keyring.required(keyringFile.toString(), "the bench (--keyring)", Power.INTENT);
    }

    /**
     * @param own a client's own settings
     * @return a Kafka client's settings: {@link #kafkaSettings()}, then {@code own}, then {@code bootstrap.servers}
     */
    public Properties kafkaClient(Properties own) {
        Properties p = kafkaSettings.with(own);
        p.put("bootstrap.servers", kafkaBootstrap);
        return p;
    }

    /** A new connection with auto-commit off: every caller commits its own transactions. */
    public Connection connect() throws SQLException {
        Connection c = DriverManager.getConnection(pgUrl, "postgres", "");
        c.setAutoCommit(false);
        return c;
    }
}
