package dev.toolonce.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.toolonce.relay.RelayHarness.SourceArgs;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestStack;

/**
 * The relay rides through crashes of its dependencies without a restart of its own: PostgreSQL
 * killed with SIGKILL mid-stream and started again, then the Kafka broker killed with SIGKILL
 * mid-stream and started again. A writer inserts outbox rows all along (retrying each until it
 * commits); every committed row must reach the topic at least once, {@code /ready} must say 503
 * while the dependency is down and 200 again after. The time from the dependency being back to
 * the first new row on the topic is printed (not asserted).
 */
class RelayInfraFaultIT {

    static final String SCHEMA = "faultit";
    static final Duration DELIVERY = Duration.ofSeconds(120);

    @Test
    void publishingResumesAfterPostgresIsKilledAndRestarted() throws Exception {
        TestStack stack = TestStack.get();
        Fixture f = Fixture.start(stack, "pgkill");
        try (TopicWatcher watcher = new TopicWatcher(stack.kafkaBootstrap(), f.topic);
             OutboxWriter writer = new OutboxWriter(f.db, SCHEMA, f.topic, "pg", Duration.ofMillis(20))) {
            await().atMost(DELIVERY).until(() -> writer.committed().size() >= 100
                    && watcher.seenAll(writer.committed().keySet()));

            long killedAt = System.nanoTime();
            stack.killPostgres();
            try {
                awaitReady(f.port, false, "while PostgreSQL is down");
            } finally {
                stack.startPostgres();
            }
            long backAt = System.nanoTime();
            await().atMost(DELIVERY).until(() -> writer.firstCommitAfter(backAt) > 0);
            Thread.sleep(2_000); // keep writing after the restart
            Map<String, Long> committed = writer.stop();

            await().atMost(DELIVERY).until(() -> watcher.seenAll(committed.keySet()));
            awaitReady(f.port, true, "after PostgreSQL is back");
            String firstAfter = writer.firstIdCommittedAfter(killedAt);
            long commitAfter = committed.get(firstAfter);
            System.out.printf("[RelayInfraFaultIT] PostgreSQL SIGKILL: rows committed=%d, failed insert attempts=%d, %s;"
                            + " kill->PostgreSQL back %d ms; first row committed after the restart reached Kafka %d ms"
                            + " after its commit; PostgreSQL back->first new row on the topic %d ms%n",
                    committed.size(), writer.failedAttempts(), watcher.summary(), millis(backAt - killedAt),
                    millis(watcher.firstSeen(firstAfter) - commitAfter),
                    millis(watcher.firstNewRecordAfter(backAt) - backAt));
            assertThat(watcher.missing(committed.keySet())).isEmpty();
        } finally {
            f.stop();
        }
    }

    @Test
    void publishingResumesAfterKafkaIsKilledAndRestarted() throws Exception {
        TestStack stack = TestStack.get();
        Fixture f = Fixture.start(stack, "kafkakill");
        try (TopicWatcher watcher = new TopicWatcher(stack.kafkaBootstrap(), f.topic);
             OutboxWriter writer = new OutboxWriter(f.db, SCHEMA, f.topic, "kafka", Duration.ofMillis(20))) {
            await().atMost(DELIVERY).until(() -> writer.committed().size() >= 100
                    && watcher.seenAll(writer.committed().keySet()));

            long killedAt = System.nanoTime();
            stack.killKafka();
            try {
                awaitReady(f.port, false, "while Kafka is down");
                Thread.sleep(1_000); // rows pile up in the outbox meanwhile
            } finally {
                stack.startKafka();
            }
            long backAt = System.nanoTime();
            await().atMost(DELIVERY).until(() -> watcher.firstNewRecordAfter(backAt) > 0);
            long resumedAt = watcher.firstNewRecordAfter(backAt);
            Thread.sleep(2_000);
            Map<String, Long> committed = writer.stop();

            await().atMost(DELIVERY).until(() -> watcher.seenAll(committed.keySet()));
            awaitReady(f.port, true, "after Kafka is back");
            System.out.printf("[RelayInfraFaultIT] Kafka SIGKILL: rows committed=%d, %s; kill->Kafka back %d ms;"
                            + " Kafka back->first new row on the topic %d ms%n",
                    committed.size(), watcher.summary(), millis(backAt - killedAt), millis(resumedAt - backAt));
            assertThat(watcher.missing(committed.keySet())).isEmpty();
        } finally {
            f.stop();
        }
    }

    static void awaitReady(int port, boolean ready, String when) {
        int expected = ready ? 200 : 503;
        await(when + ": /ready answers " + expected).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(() -> {
                    HttpResponse<String> r = RelayHarness.get(port, "/ready");
                    return r.statusCode() == expected;
                });
    }

    static long millis(long nanos) {
        return nanos / 1_000_000;
    }

    /** A fresh database, outbox, topic and relay process. */
    static final class Fixture {
        final String db;
        final String slot;
        final String topic;
        final int port;
        final ServiceProcess relay;

        private Fixture(String db, String slot, String topic, int port, ServiceProcess relay) {
            this.db = db;
            this.slot = slot;
            this.topic = topic;
            this.port = port;
            this.relay = relay;
        }

        static Fixture start(TestStack stack, String name) throws Exception {
            String db = stack.freshDatabase("relay_" + name);
            String slot = "relay_" + name + "_" + RelayHarness.unique();
            RelayHarness.createOutbox(db, SCHEMA, "relay_" + name + "_pub");
            String topic = stack.freshTopic("relay-" + name, 3);
            String dlq = stack.freshTopic("relay-" + name + "-dlq", 1);
            int port = ServiceProcess.freePort();
            List<SourceArgs> sources = List.of(new SourceArgs(name, db, slot, "relay_" + name + "_pub",
                    SCHEMA + ".outbox_event"));
            ServiceProcess relay = RelayHarness.startRelay("relay-" + name, port, stack.kafkaBootstrap(), dlq, sources)
                    .awaitHttpOk("http://127.0.0.1:" + port + "/ready", Duration.ofSeconds(120));
            return new Fixture(db, slot, topic, port, relay);
        }

        void stop() {
            relay.stop();
            RelayHarness.dropSlots(db, slot);
        }
    }
}
