package dev.toolonce.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.toolonce.relay.RelayHarness.SourceArgs;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestStack;

/**
 * The relay never skips outbox rows committed while its slot did not exist. The slot is dropped
 * (as a failover without slot sync loses it) while rows are committed — some before the drop,
 * which the old slot held but never delivered, some after it, which no slot holds — then the
 * relay starts again: it creates a new slot, snapshots the table and streams on; every row
 * arrives. Then the same with the relay killed (SIGKILL) in the middle of that snapshot: the
 * unfinished snapshot is not recorded as done, so the next start snapshots again.
 */
class RelaySlotLossIT {

    static final String SCHEMA = "slotlossit";
    static final Duration DELIVERY = Duration.ofSeconds(120);

    @Test
    void rowsCommittedWhileTheSlotWasMissingAreSnapshottedEvenIfTheSnapshotCrashes() throws Exception {
        TestStack stack = TestStack.get();
        String db = stack.freshDatabase("relay_slotloss");
        String slot = "relay_slotloss_" + RelayHarness.unique();
        RelayHarness.createOutbox(db, SCHEMA, "relay_slotloss_pub");
        String topic = stack.freshTopic("relay-slotloss", 3);
        String dlq = stack.freshTopic("relay-slotloss-dlq", 1);
        int port = ServiceProcess.freePort();
        List<SourceArgs> sources = List.of(new SourceArgs("slotloss", db, slot, "relay_slotloss_pub",
                SCHEMA + ".outbox_event"));
        String ready = "http://127.0.0.1:" + port + "/ready";
        ServiceProcess relay = RelayHarness.startRelay("relay-slotloss", port, stack.kafkaBootstrap(), dlq, sources)
                .awaitHttpOk(ready, Duration.ofSeconds(120));
        try (TopicWatcher watcher = new TopicWatcher(stack.kafkaBootstrap(), topic)) {
            Set<String> streamed = write(db, topic, "a", 200);
            await().atMost(DELIVERY).until(() -> watcher.seenAll(streamed));

            relay.stop();
            Set<String> heldByTheLostSlot = write(db, topic, "b", 200);
            dropSlot(db, slot);
            Set<String> noSlotAtAll = write(db, topic, "c", 200);
            relay = RelayHarness.startRelay("relay-slotloss", port, stack.kafkaBootstrap(), dlq, sources)
                    .awaitHttpOk(ready, Duration.ofSeconds(120));
            Set<String> afterRestart = write(db, topic, "d", 200);
            await().atMost(DELIVERY).until(() -> watcher.seenAll(heldByTheLostSlot) && watcher.seenAll(noSlotAtAll)
                    && watcher.seenAll(afterRestart));
            System.out.println("[RelaySlotLossIT] slot dropped with relay stopped: " + watcher.summary());
            assertThat(watcher.missing(union(streamed, heldByTheLostSlot, noSlotAtAll, afterRestart))).isEmpty();

            // Again, with a large table, and the relay killed once the snapshot has begun to arrive.
            relay.stop();
            dropSlot(db, slot);
            Set<String> big = write(db, topic, "e", 30_000);
            relay = RelayHarness.startRelay("relay-slotloss", port, stack.kafkaBootstrap(), dlq, sources);
            await().atMost(DELIVERY).pollInterval(Duration.ofMillis(20)).until(() -> big.stream().anyMatch(id -> watcher.firstSeen(id) > 0));
            relay.kill9();
            int seenAtKill = (int) big.stream().filter(id -> watcher.firstSeen(id) > 0).count();
            boolean markedAtKill = snapshotMarked(db, slot);
            relay = RelayHarness.startRelay("relay-slotloss", port, stack.kafkaBootstrap(), dlq, sources)
                    .awaitHttpOk(ready, Duration.ofSeconds(120));
            await().atMost(DELIVERY).until(() -> watcher.seenAll(big));
            System.out.println("[RelaySlotLossIT] relay SIGKILLed during the snapshot of " + big.size() + " rows: "
                    + seenAtKill + " of them on the topic at the kill, snapshot recorded as done at the kill: "
                    + markedAtKill + "; after the restart " + watcher.summary());
            assertThat(watcher.missing(big)).isEmpty();
        } finally {
            relay.stop();
            RelayHarness.dropSlots(db, slot);
        }
    }

    static Set<String> write(String db, String topic, String prefix, int count) throws Exception {
        return new HashSet<>(RelayKillIT.idsOfRows(writeRows(db, topic, prefix, count)));
    }

    static List<RelayHarness.Row> writeRows(String db, String topic, String prefix, int count) throws Exception {
        List<RelayHarness.Row> rows = new java.util.ArrayList<>();
        try (var c = RelayHarness.connect(db)) {
            for (int i = 0; i < count; i += 500) {
                List<RelayHarness.Row> tx = new java.util.ArrayList<>();
                for (int j = i; j < Math.min(count, i + 500); j++) {
                    tx.add(RelayHarness.Row.of(topic, prefix + "-" + j, "{\"seq\":" + j + "}"));
                }
                RelayHarness.insert(c, SCHEMA, tx);
                rows.addAll(tx);
            }
        }
        return rows;
    }

    static void dropSlot(String db, String slot) {
        await("slot " + slot + " released and dropped").atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            RelayHarness.execute(db, "SELECT pg_drop_replication_slot('" + slot + "')");
            return true;
        });
    }

    static boolean snapshotMarked(String db, String slot) throws Exception {
        try (var c = RelayHarness.connect(db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM toolonce_relay.snapshot_done WHERE slot_name = '" + slot + "'")) {
            rs.next();
            return rs.getLong(1) > 0;
        }
    }

    @SafeVarargs
    static Set<String> union(Set<String>... sets) {
        Set<String> all = new HashSet<>();
        for (Set<String> s : sets) {
            all.addAll(s);
        }
        return all;
    }
}
