package dev.toolonce.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import dev.toolonce.relay.RelayHarness.Row;
import dev.toolonce.relay.RelayHarness.SourceArgs;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestStack;

/**
 * Two relays of the same source, each in its own process: the one that holds the replication slot publishes, the
 * other stands by, ready, and takes over when the first is killed with SIGKILL — and back again. Rows written
 * before, during and after each kill all reach the topic (duplicates allowed: the inboxes absorb them). The
 * times are printed, not asserted: from the kill to the arrival of a row committed right after it, first for a
 * lone relay restarted (the baseline), then for each takeover by a standby.
 */
class RelayStandbyIT {

    static final String SCHEMA = "standbyit";

    @Test
    void theStandbyTakesOverWhenThePublishingRelayIsKilled() throws Exception {
        TestStack stack = TestStack.get();
        String db = stack.freshDatabase("relay_standby");
        String slot = "relay_standby_" + RelayHarness.unique();
        RelayHarness.createOutbox(db, SCHEMA, "relay_standby_pub");
        String topic = stack.freshTopic("relay-standby", 3);
        String dlq = stack.freshTopic("relay-standby-dlq", 1);
        List<SourceArgs> sources = List.of(new SourceArgs("standby", db, slot, "relay_standby_pub",
                SCHEMA + ".outbox_event"));
        Relay a = new Relay("relay-a", stack, dlq, sources);
        Relay b = new Relay("relay-b", stack, dlq, sources);
        try (TopicReader reader = new TopicReader(stack.kafkaBootstrap(), topic)) {
            a.start();
            a.awaitState("RUNNING");
            List<Row> before = write(db, topic, "before", 500, Duration.ofMillis(5));
            reader.readUntilIds(ids(before), Duration.ofSeconds(120));
            List<String> expected = new ArrayList<>(ids(before));
            // The baseline: a lone relay killed and started again.
            expected.addAll(killAndMeasure(a, a, db, topic, reader, "restart"));

            b.start();
            b.awaitState("STANDBY"); // and /ready answered 200: a standby is ready
            expected.addAll(killAndMeasure(a, b, db, topic, reader, "first takeover"));
            a.start();
            a.awaitState("STANDBY"); // the restarted relay finds the slot held and stands by
            expected.addAll(killAndMeasure(b, a, db, topic, reader, "second takeover"));

            reader.readUntilIds(expected, Duration.ofSeconds(120));
            long records = reader.seen().size();
            System.out.printf("[RelayStandbyIT] rows written: %d, records on the topic: %d (%d sent again after a "
                    + "takeover)%n", expected.size(), records, records - expected.size());
            assertThat(reader.seen().stream().map(r -> RelayHarness.headers(r).get("ce_id")).distinct())
                    .containsAll(expected);
        } finally {
            a.stop();
            b.stop();
            RelayHarness.dropSlots(db, slot);
        }
    }

    /**
     * Kills {@code publishing} while rows stream, commits one probe row right after the kill, and waits for
     * {@code standby} to publish it; when both are the same relay, it is started again after the kill.
     *
     * @return the ids of every row written meanwhile
     */
    private static List<String> killAndMeasure(Relay publishing, Relay standby, String db, String topic,
                                               TopicReader reader, String round) throws Exception {
        CompletableFuture<List<Row>> streaming = CompletableFuture.supplyAsync(() -> {
            try {
                return write(db, topic, round, 1_000, Duration.ofMillis(5));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        reader.readUntilAny(r -> RelayHarness.utf8(r.key()).startsWith(round + "-"), Duration.ofSeconds(60));
        publishing.kill9();
        long killed = System.nanoTime();
        Row probe = Row.of(topic, round + "-probe", "{\"probe\":true}");
        RelayHarness.insert(db, SCHEMA, List.of(probe));
        if (standby == publishing) {
            publishing.start();
        }
        reader.readUntilIds(List.of(probe.id().toString()), Duration.ofSeconds(120));
        long resumedMillis = (System.nanoTime() - killed) / 1_000_000;
        standby.awaitState("RUNNING");
        System.out.printf("[RelayStandbyIT] %s: %s killed, a row committed right after the kill was published by "
                + "%s %d ms after the kill%n", round, publishing.name, standby.name, resumedMillis);
        List<String> ids = new ArrayList<>(ids(streaming.get()));
        ids.add(probe.id().toString());
        return ids;
    }

    /** Writes {@code count} rows in transactions of 10, pausing {@code pause} between them. */
    private static List<Row> write(String db, String topic, String prefix, int count, Duration pause)
            throws Exception {
        return RelayKillIT.write(db, SCHEMA, topic, prefix, count, 10, pause);
    }

    private static List<String> ids(List<Row> rows) {
        return RelayKillIT.idsOfRows(rows);
    }

    /** One relay process of the pair, restartable on the same port. */
    private static final class Relay {
        private final String name;
        private final TestStack stack;
        private final String dlq;
        private final List<SourceArgs> sources;
        private final int port = ServiceProcess.freePort();
        private ServiceProcess process;

        Relay(String name, TestStack stack, String dlq, List<SourceArgs> sources) {
            this.name = name;
            this.stack = stack;
            this.dlq = dlq;
            this.sources = sources;
        }

        void start() {
            process = RelayHarness.startRelay(name, port, stack.kafkaBootstrap(), dlq, sources)
                    .awaitHttpOk("http://127.0.0.1:" + port + "/ready", Duration.ofSeconds(120));
        }

        /** Waits until {@code /ready} shows the source in {@code state}. */
        void awaitState(String state) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> RelayHarness.get(port, "/ready").body().contains("\"state\":\"" + state + "\""));
        }

        void kill9() {
            process.kill9();
        }

        void stop() {
            if (process != null) {
                process.stop();
            }
        }
    }
}
