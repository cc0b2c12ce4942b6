package dev.toolonce.relay;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestTokens;

/** Database, relay-process and HTTP helpers shared by the relay's integration tests. */
final class RelayHarness {

    /** The outbox table every ToolOnce service has, as the services' own migrations create it. */
    static final String OUTBOX_DDL = """
            CREATE SCHEMA %1$s;
            CREATE TABLE %1$s.outbox_event (
              id             uuid PRIMARY KEY,
              aggregate_type text NOT NULL,
              aggregate_id   text NOT NULL,
              event_type     text NOT NULL,
              source         text NOT NULL,
              subject        text,
              payload        text NOT NULL CHECK (octet_length(payload) <= 1048576),
              traceparent    text,
              created_at     timestamptz NOT NULL DEFAULT clock_timestamp());
            CREATE PUBLICATION %2$s FOR TABLE %1$s.outbox_event WITH (publish = 'insert');
            """;
    static final String INSERT = """
            INSERT INTO %s.outbox_event (id, aggregate_type, aggregate_id, event_type, source, subject, payload, traceparent)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)""";

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private RelayHarness() {
    }

    /** One source as command-line arguments of the relay. */
    record SourceArgs(String name, String jdbcUrl, String slot, String publication, String table) {
    }

    /** An outbox row to insert. */
    record Row(UUID id, String topic, String key, String type, String source, String subject, String payload,
               String traceparent) {
        static Row of(String topic, String key, String payload) {
            return new Row(UUID.randomUUID(), topic, key, "dev.toolonce.test.v1", "/toolonce/relay-it", null, payload, null);
        }
    }

    static Connection connect(String jdbcUrl) throws SQLException {
        return DriverManager.getConnection(jdbcUrl, "postgres", "");
    }

    static void execute(String jdbcUrl, String sql) throws SQLException {
        try (Connection c = connect(jdbcUrl); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    static void createOutbox(String jdbcUrl, String schema, String publication) throws SQLException {
        execute(jdbcUrl, OUTBOX_DDL.formatted(schema, publication));
    }

    /** Inserts the rows in one transaction. */
    static void insert(Connection c, String schema, List<Row> rows) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement(INSERT.formatted(schema))) {
            for (Row r : rows) {
                ps.setObject(1, r.id());
                ps.setString(2, r.topic());
                ps.setString(3, r.key());
                ps.setString(4, r.type());
                ps.setString(5, r.source());
                ps.setString(6, r.subject());
                ps.setString(7, r.payload());
                ps.setString(8, r.traceparent());
                ps.addBatch();
            }
            ps.executeBatch();
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    static void insert(String jdbcUrl, String schema, List<Row> rows) throws SQLException {
        try (Connection c = connect(jdbcUrl)) {
            insert(c, schema, rows);
        }
    }

    static ServiceProcess startRelay(String name, int port, String kafka, String deadLetterTopic, List<SourceArgs> sources) {
        List<String> args = new ArrayList<>(List.of(
                "--server.port=" + port,
                "--toolonce.relay.kafka-bootstrap=" + kafka,
                "--toolonce.relay.dead-letter-topic=" + deadLetterTopic,
                "--toolonce.relay.heartbeat-interval=1s"));
        for (int i = 0; i < sources.size(); i++) {
            SourceArgs s = sources.get(i);
            String at = "--toolonce.relay.sources[" + i + "].";
            args.addAll(List.of(at + "name=" + s.name(), at + "jdbc-url=" + s.jdbcUrl(), at + "slot=" + s.slot(),
                    at + "publication=" + s.publication(), at + "table=" + s.table()));
        }
        return ServiceProcess.start(name, RelayApplication.class.getName(), Map.of(), args);
    }

    static HttpResponse<String> get(int port, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", TestTokens.adminHeader())
                .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> post(int port, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", TestTokens.adminHeader())
                .timeout(Duration.ofSeconds(5)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String stats(int port) throws Exception {
        return get(port, "/relay/stats").body();
    }

    /** Resident memory of a process in MiB, from /proc (Linux). */
    static long residentMiB(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) / 1024;
                }
            }
        } catch (Exception e) {
            return -1;
        }
        return -1;
    }

    /** Drops replication slots so the shared test cluster does not keep WAL for finished tests. */
    static void dropSlots(String jdbcUrl, String... slots) {
        for (String slot : slots) {
            try {
                execute(jdbcUrl, "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '"
                        + slot + "' AND NOT active");
            } catch (SQLException e) {
                System.err.println("could not drop slot " + slot + ": " + e.getMessage());
            }
        }
    }

    static String utf8(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    static Map<String, String> headers(org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]> record) {
        Map<String, String> map = new HashMap<>();
        record.headers().forEach(h -> map.put(h.key(), utf8(h.value())));
        return map;
    }

    static String unique() {
        return UUID.randomUUID().toString().substring(0, 8);
    }
}
