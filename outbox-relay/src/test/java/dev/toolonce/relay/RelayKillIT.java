package dev.toolonce.relay;

import static dev.toolonce.relay.RelayHarness.headers;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.toolonce.relay.RelayHarness.Row;
import dev.toolonce.relay.RelayHarness.SourceArgs;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestStack;

/**
 * SIGKILL of the relay process loses nothing: rows relayed before the kill, rows written while
 * it is dead, and rows written while it is being killed mid-stream all arrive after a restart.
 * Duplicates are allowed (consumers' inboxes absorb them); they are counted and printed.
 */
class RelayKillIT {

    static final String SCHEMA = "killit";

    @Test
    void nothingIsLostWhenTheRelayIsKilled() throws Exception {
        TestStack stack = TestStack.get();
        String db = stack.freshDatabase("relay_kill");
        String slot = "relay_kill_" + RelayHarness.unique();
        RelayHarness.createOutbox(db, SCHEMA, "relay_kill_pub");
        String topic = stack.freshTopic("relay-kill", 3);
        String dlq = stack.freshTopic("relay-kill-dlq", 1);
        int port = ServiceProcess.freePort();
        List<SourceArgs> sources = List.of(new SourceArgs("kill", db, slot, "relay_kill_pub", SCHEMA + ".outbox_event"));
        String ready = "http://127.0.0.1:" + port + "/ready";
        ServiceProcess relay = RelayHarness.startRelay("relay-kill", port, stack.kafkaBootstrap(), dlq, sources)
                .awaitHttpOk(ready, Duration.ofSeconds(120));
        try (TopicReader reader = new TopicReader(stack.kafkaBootstrap(), topic)) {
            // Warm-up, then batch 1 at a steady pace (about 1,000 rows/s) for the latency figures.
            List<Row> warmUp = write(db, topic, "w", 1_000, 10, Duration.ofMillis(10));
            reader.readUntilIds(idsOfRows(warmUp), Duration.ofSeconds(120));
            RelayHarness.post(port, "/relay/stats/reset");
            List<Row> batch1 = write(db, topic, "b1", 3_000, 10, Duration.ofMillis(10));
            reader.readUntilIds(idsOfRows(batch1), Duration.ofSeconds(120));
            System.out.println("[RelayKillIT] commit->ack after warm-up, batch 1 (3,000 rows, 10 per tx, ~1,000/s): "
                    + RelayHarness.stats(port));
            System.out.println("[RelayKillIT] relay resident memory: " + RelayHarness.residentMiB(relay.pid()) + " MiB");

            relay.kill9();
            List<Row> batch2 = write(db, topic, "b2", 1_000, 50, Duration.ZERO);
            relay = RelayHarness.startRelay("relay-kill", port, stack.kafkaBootstrap(), dlq, sources)
                    .awaitHttpOk(ready, Duration.ofSeconds(120));
            reader.readUntilIds(idsOfRows(batch2), Duration.ofSeconds(120));

            // Batch 3: killed while it streams, restarted at once.
            CompletableFuture<List<Row>> writing = CompletableFuture.supplyAsync(() -> {
                try {
                    return write(db, topic, "b3", 3_000, 10, Duration.ofMillis(5));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            reader.readUntilAny(r -> new String(r.key(), StandardCharsets.UTF_8).startsWith("b3-"), Duration.ofSeconds(60));
            relay.kill9();
            relay = RelayHarness.startRelay("relay-kill", port, stack.kafkaBootstrap(), dlq, sources)
                    .awaitHttpOk(ready, Duration.ofSeconds(120));
            List<Row> batch3 = writing.get();
            reader.readUntilIds(idsOfRows(batch3), Duration.ofSeconds(120));

            Map<String, Long> counts = reader.seen().stream()
                    .collect(Collectors.groupingBy(r -> headers(r).get("ce_id"), Collectors.counting()));
            Map<String, Long> duplicates = new HashMap<>();
            counts.forEach((id, n) -> {
                if (n > 1) {
                    duplicates.put(id, n);
                }
            });
            long extra = duplicates.values().stream().mapToLong(n -> n - 1).sum();
            System.out.println("[RelayKillIT] rows written: " + (warmUp.size() + batch1.size() + batch2.size() + batch3.size())
                    + ", records on the topic: " + reader.seen().size() + ", distinct ids: " + counts.size()
                    + ", ids delivered more than once: " + duplicates.size() + " (" + extra + " extra records)");
            duplicates.entrySet().stream().limit(20)
                    .forEach(e -> System.out.println("[RelayKillIT]   duplicate " + e.getKey() + " x" + e.getValue()));
            System.out.println("[RelayKillIT] stats after the restarts: " + RelayHarness.stats(port));
            assertThat(counts.keySet()).containsAll(idsOfRows(batch1)).containsAll(idsOfRows(batch2))
                    .containsAll(idsOfRows(batch3));
        } finally {
            relay.stop();
            RelayHarness.dropSlots(db, slot);
        }
    }

    /** Writes {@code count} rows in transactions of {@code perTx}, pausing {@code pause} between them. */
    static List<Row> write(String db, String topic, String prefix, int count, int perTx, Duration pause) throws Exception {
        return write(db, SCHEMA, topic, prefix, count, perTx, pause);
    }

    /** The same, into the outbox table of {@code schema}. */
    static List<Row> write(String db, String schema, String topic, String prefix, int count, int perTx, Duration pause)
            throws Exception {
        List<Row> all = new ArrayList<>(count);
        try (Connection c = RelayHarness.connect(db)) {
            for (int i = 0; i < count; i += perTx) {
                List<Row> tx = new ArrayList<>(perTx);
                for (int j = i; j < Math.min(count, i + perTx); j++) {
                    tx.add(Row.of(topic, prefix + "-" + j, "{\"seq\":" + j + ",\"batch\":\"" + prefix + "\"}"));
                }
                RelayHarness.insert(c, schema, tx);
                all.addAll(tx);
                if (!pause.isZero()) {
                    Thread.sleep(pause.toMillis());
                }
            }
        }
        return all;
    }

    static List<String> idsOfRows(List<Row> rows) {
        return rows.stream().map(r -> r.id().toString()).toList();
    }
}
