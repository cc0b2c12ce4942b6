package dev.toolonce.relay.offsets;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.MemoryOffsetBackingStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Debezium offsets kept in {@code toolonce_relay.offsets} of the source database itself, next
 * to the replication slot they describe, so that the two can be reset together and survive a
 * lost relay host. Loaded once at start; every flush replaces the slot's row (the engine
 * flushes at most every {@code toolonce.relay.offset-flush-interval}, and only positions of rows
 * Kafka has acknowledged), and only after that write succeeded does Debezium confirm the
 * position to the slot.
 *
 * <p>Configured through the engine properties {@link #JDBC_URL}, {@link #USERNAME},
 * {@link #PASSWORD} and {@link #SLOT}. Instantiated by Debezium with the no-arg constructor.
 */
public class PostgresOffsetBackingStore extends MemoryOffsetBackingStore {

    /** Engine property: JDBC URL of the source database. */
    public static final String JDBC_URL = "toolonce.offsets.jdbc.url";
    /** Engine property: database user. */
    public static final String USERNAME = "toolonce.offsets.jdbc.username";
    /** Engine property: database password (masked in Debezium's logs by its name). */
    public static final String PASSWORD = "toolonce.offsets.jdbc.password";
    /** Engine property: the replication slot whose offsets these are (the row's key). */
    public static final String SLOT = "toolonce.offsets.slot";

    private static final Logger log = LoggerFactory.getLogger(PostgresOffsetBackingStore.class);

    private String url;
    private String username;
    private String password;
    private String slot;
    private Connection connection;

    @Override
    public void configure(WorkerConfig config) {
        super.configure(config);
        Map<String, String> props = config.originalsStrings();
        url = required(props, JDBC_URL);
        username = props.getOrDefault(USERNAME, "postgres");
        password = props.getOrDefault(PASSWORD, "");
        slot = required(props, SLOT);
    }

    @Override
    public synchronized void start() {
        super.start();
        try {
            Optional<String> stored = OffsetsRepository.load(connection(), slot);
            stored.ifPresent(text -> data.putAll(OffsetsCodec.decode(text)));
            log.info("Offsets of slot {} loaded: {}", slot, stored.orElse("none (stream starts at the slot)"));
        } catch (SQLException e) {
            closeQuietly();
            throw new ConnectException("Cannot load offsets of slot " + slot + " from " + url, e);
        }
    }

    @Override
    public synchronized void stop() {
        super.stop();
        closeQuietly();
    }

    /** Runs on the store's single executor thread, after {@code data} was updated. */
    @Override
    protected void save() {
        String text = OffsetsCodec.encode(data);
        try {
            OffsetsRepository.save(connection(), slot, text);
        } catch (SQLException e) {
            closeQuietly(); // reconnect on the next flush
            throw new ConnectException("Cannot store offsets of slot " + slot + " in " + url, e);
        }
    }

    @Override
    public Set<Map<String, Object>> connectorPartitions(String connectorName) {
        return Set.of(); // only used by Connect's REST offset API, which the embedded engine lacks
    }

    private Connection connection() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = DriverManager.getConnection(url, username, password);
            connection.setAutoCommit(true);
        }
        return connection;
    }

    private void closeQuietly() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // the connection is discarded either way
            }
            connection = null;
        }
    }

    private static String required(Map<String, String> props, String key) {
        String value = props.get(key);
        if (value == null || value.isBlank()) {
            throw new ConnectException("Engine property " + key + " is missing for " + PostgresOffsetBackingStore.class.getName());
        }
        return value;
    }
}
