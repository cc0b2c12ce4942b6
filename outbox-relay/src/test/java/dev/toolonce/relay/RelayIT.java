package dev.toolonce.relay;

import static dev.toolonce.relay.RelayHarness.headers;
import static dev.toolonce.relay.RelayHarness.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import dev.toolonce.relay.RelayHarness.Row;
import dev.toolonce.relay.RelayHarness.SourceArgs;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestStack;

/**
 * The relay as a separate process against a real PostgreSQL and a real Kafka broker: headers and
 * bytes on the topic, dead-lettering without stalling, rows written while the relay is down,
 * a slot reset, and a relay that starts before its publication exists.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RelayIT {

    static final Duration ARRIVAL = Duration.ofSeconds(60);
    static final Duration READY = Duration.ofSeconds(120);

    static TestStack stack;
    static String db;
    static String schema = "relayit";
    static String slot;
    static String topic;
    static String dlq;
    static int port;
    static ServiceProcess relay;
    static List<SourceArgs> sources;

    @BeforeAll
    static void startRelay() throws Exception {
        stack = TestStack.get();
        db = stack.freshDatabase("relay_it");
        String suffix = RelayHarness.unique().replace('-', '_');
        slot = "relay_it_" + suffix;
        RelayHarness.createOutbox(db, schema, "relay_it_pub");
        topic = stack.freshTopic("relay-it", 3);
        dlq = stack.freshTopic("relay-it-dlq", 1);
        port = ServiceProcess.freePort();
        sources = List.of(new SourceArgs("it", db, slot, "relay_it_pub", schema + ".outbox_event"));
        relay = RelayHarness.startRelay("relay-it", port, stack.kafkaBootstrap(), dlq, sources)
                .awaitHttpOk("http://127.0.0.1:" + port + "/ready", READY);
    }

    @AfterAll
    static void stopRelay() throws Exception {
        if (relay != null) {
            System.out.println("[RelayIT] relay stats: " + RelayHarness.stats(port));
            System.out.println("[RelayIT] relay resident memory: " + RelayHarness.residentMiB(relay.pid()) + " MiB");
            relay.stop();
        }
        if (db != null) {
            RelayHarness.dropSlots(db, slot);
        }
    }

    @Test
    @Order(1)
    void publishesEveryRowWithItsHeadersAndThePayloadByteForByte() throws Exception {
        List<Row> rows = List.of(
                new Row(UUID.randomUUID(), topic, "acme/payments/charge/order-1:charge", "dev.toolonce.tool-intent.v1",
                        "/toolonce/agent", "acme/payments/charge/order-1:charge",
                        "{\"amount\":1000,  \"currency\":\"EUR\",\"note\":\"Grüße – 日本語 🚀\"}", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"),
                new Row(UUID.randomUUID(), topic, "acme/tickets/create/k/with/slashes", "dev.toolonce.tool-result.v1",
                        "/toolonce/tool-executor", null, "\t{ \"a\" : [ 1 ,2 ],\r\n\"b\":\"\u00a0 \u2028 \" }  \n", null),
                new Row(UUID.randomUUID(), topic, "ключ", "dev.toolonce.tool-intent.v1", "/toolonce/agent",
                        "subject only", "\"\\u00fc is not ü\"", null));
        RelayHarness.insert(db, schema, rows);

        Map<String, Row> byId = rows.stream().collect(Collectors.toMap(r -> r.id().toString(), r -> r));
        try (TopicReader reader = new TopicReader(stack.kafkaBootstrap(), topic)) {
            List<ConsumerRecord<byte[], byte[]>> seen = reader.readUntil(s -> ids(s).containsAll(byId.keySet()), ARRIVAL);
            for (ConsumerRecord<byte[], byte[]> record : seen) {
                Map<String, String> h = headers(record);
                Row row = byId.get(h.get("ce_id"));
                assertThat(row).as("record with ce_id %s", h.get("ce_id")).isNotNull();
                assertThat(utf8(record.key())).isEqualTo(row.key());
                assertThat(record.value()).isEqualTo(row.payload().getBytes(StandardCharsets.UTF_8));
                assertThat(h).containsEntry("ce_specversion", "1.0")
                        .containsEntry("ce_type", row.type())
                        .containsEntry("ce_source", row.source())
                        .containsEntry("content-type", "application/json")
                        .containsKey("ce_time");
                assertThat(h.get("ce_subject")).isEqualTo(row.subject());
                assertThat(h.get("traceparent")).isEqualTo(row.traceparent());
                assertThat(h.get("ce_time")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");
            }
        }
    }

    @Test
    @Order(2)
    void deadLettersWhatKafkaCannotTakeAndTheNextRowStillArrives() throws Exception {
        Row tooLarge = Row.of(topic, "big", "x".repeat(1_048_576));
        Row missingTopic = Row.of("relay-it-missing-" + RelayHarness.unique(), "nowhere", "{\"n\":1}");
        Row badName = Row.of("not a topic!", "bad", "{\"n\":2}");
        Row next = Row.of(topic, "after-the-bad-ones", "{\"n\":3}");
        RelayHarness.insert(db, schema, List.of(tooLarge));
        RelayHarness.insert(db, schema, List.of(missingTopic, badName));
        RelayHarness.insert(db, schema, List.of(next));

        try (TopicReader reader = new TopicReader(stack.kafkaBootstrap(), topic)) {
            reader.readUntil(s -> ids(s).contains(next.id().toString()), ARRIVAL);
            assertThat(ids(reader.seen())).doesNotContain(tooLarge.id().toString());
        }
        try (TopicReader reader = new TopicReader(stack.kafkaBootstrap(), dlq)) {
            Set<String> expected = Set.of(tooLarge.id().toString(), missingTopic.id().toString(), badName.id().toString());
            List<ConsumerRecord<byte[], byte[]>> dead = reader.readUntil(s -> ids(s).containsAll(expected), ARRIVAL);
            Map<String, ConsumerRecord<byte[], byte[]>> byId = dead.stream()
                    .collect(Collectors.toMap(r -> headers(r).get("ce_id"), r -> r, (a, b) -> a));

            ConsumerRecord<byte[], byte[]> big = byId.get(tooLarge.id().toString());
            assertThat(headers(big)).containsEntry("toolonce.error.code", "RECORD_TOO_LARGE")
                    .containsEntry("toolonce.original.topic", topic)
                    .containsEntry("toolonce.original.value-bytes", "1048576")
                    .containsEntry("ce_type", tooLarge.type())
                    .containsKey("toolonce.error.message");
            assertThat(utf8(big.key())).isEqualTo("big");
            assertThat(big.value()).isNull();

            ConsumerRecord<byte[], byte[]> missing = byId.get(missingTopic.id().toString());
            assertThat(headers(missing)).containsEntry("toolonce.error.code", "UNKNOWN_TOPIC")
                    .containsEntry("toolonce.original.topic", missingTopic.topic());
            assertThat(missing.value()).isEqualTo("{\"n\":1}".getBytes(StandardCharsets.UTF_8));
            assertThat(utf8(missing.key())).isEqualTo("nowhere");

            ConsumerRecord<byte[], byte[]> bad = byId.get(badName.id().toString());
            assertThat(headers(bad)).containsEntry("toolonce.error.code", "INVALID_TOPIC")
                    .containsEntry("toolonce.original.topic", "not a topic!");
        }
        assertThat(RelayHarness.stats(port)).contains("\"deadLettered\":3");
    }

    @Test
    @Order(3)
    void rowsWrittenWhileTheRelayIsDownArriveAfterItRestarts() throws Exception {
        relay.stop();
        List<Row> whileDown = List.of(Row.of(topic, "down-1", "{\"down\":1}"), Row.of(topic, "down-2", "{\"down\":2}"));
        RelayHarness.insert(db, schema, whileDown);
        relay = RelayHarness.startRelay("relay-it", port, stack.kafkaBootstrap(), dlq, sources)
                .awaitHttpOk("http://127.0.0.1:" + port + "/ready", READY);
        try (TopicReader reader = new TopicReader(stack.kafkaBootstrap(), topic)) {
            reader.readUntil(s -> ids(s).containsAll(whileDown.stream().map(r -> r.id().toString()).toList()), ARRIVAL);
        }
    }

    @Test
    @Order(4)
    void aMissingSlotIsRecreatedAndItsStaleOffsetsDeleted() throws Exception {
        relay.stop();
        assertThat(offsetsRows()).isEqualTo(1);
        RelayHarness.dropSlots(db, slot);
        relay = RelayHarness.startRelay("relay-it", port, stack.kafkaBootstrap(), dlq, sources)
                .awaitHttpOk("http://127.0.0.1:" + port + "/ready", READY);
        assertThat(relay.logTail(400)).contains("is MISSING but offsets were stored");
        Row after = Row.of(topic, "after-reset", "{\"reset\":true}");
        RelayHarness.insert(db, schema, List.of(after));
        try (TopicReader reader = new TopicReader(stack.kafkaBootstrap(), topic)) {
            reader.readUntil(s -> ids(s).contains(after.id().toString()), ARRIVAL);
        }
    }

    @Test
    @Order(5)
    void theSlotAdvancesWhileTheOutboxIsQuiet() throws Exception {
        RelayHarness.execute(db, "CREATE TABLE IF NOT EXISTS busy(x int); INSERT INTO busy SELECT generate_series(1, 10000)");
        String written = query("SELECT pg_current_wal_lsn()::text");
        await("slot " + slot + " confirmed past " + written).atMost(ARRIVAL)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(250))
                .until(() -> query("SELECT (confirmed_flush_lsn >= '" + written + "'::pg_lsn)::text FROM pg_replication_slots"
                        + " WHERE slot_name = '" + slot + "'"), confirmed -> confirmed.startsWith("t"));
    }

    private static String query(String sql) throws Exception {
        try (Connection c = RelayHarness.connect(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static int offsetsRows() throws Exception {
        try (Connection c = RelayHarness.connect(db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM toolonce_relay.offsets WHERE slot_name = '" + slot + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    static Set<String> ids(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> headers(r).get("ce_id")).collect(Collectors.toSet());
    }
}
