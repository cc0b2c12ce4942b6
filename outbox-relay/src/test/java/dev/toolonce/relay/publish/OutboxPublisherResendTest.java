package dev.toolonce.relay.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import dev.toolonce.relay.faults.RelayCrashPoints;
import dev.toolonce.relay.stats.RelayStats;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * A send that fails for a reason a retry may cure (the broker restarting) no longer costs an engine restart: the
 * publisher sends the whole batch again, in order, for a bounded time, and only then hands it back to the engine.
 * Kafka's own {@link MockProducer}, with a number of sends made to fail, stands in for the broker.
 */
class OutboxPublisherResendTest {

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final RelayStats stats = new RelayStats(registry);

    @Test
    void aBatchWhoseSendFailedIsSentAgainWholeAndInOrderWithoutTheEngine() throws Exception {
        FlakyProducer producer = new FlakyProducer(1); // the second row's first send fails
        List<OutboxChange> batch = List.of(change("a", "k1"), change("b", "k1"), change("c", "k2"));

        publisher(producer).publish(batch, true);

        // first attempt: a, b (failed), c; the resend: a, b, c — the last three in the batch's order
        assertThat(producer.history()).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactly("payload-a", "payload-c", "payload-a", "payload-b", "payload-c");
        assertThat(registry.get(RelayStats.BATCHES_RESENT).tag("source", "agent").counter().count()).isEqualTo(1);
        assertThat(registry.get(RelayStats.SEND_FAILURES).tag("source", "agent").counter().count()).isEqualTo(1);
        assertThat(registry.get(RelayStats.PUBLISHED).tag("source", "agent").counter().count()).isEqualTo(5);
    }

    @Test
    void aBatchThatKeepsFailingIsHandedBackToTheEngineOnceTheResendTimeIsUp() {
        FlakyProducer producer = new FlakyProducer(FlakyProducer.ALWAYS);
        long start = System.nanoTime();

        assertThatThrownBy(() -> publisher(producer).publish(List.of(change("a", "k1")), true))
                .isInstanceOf(RetryBatchException.class).hasMessageContaining("the batch will be delivered again")
                .hasCauseInstanceOf(NetworkException.class);

        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(tookMs).isBetween(OutboxPublisher.RESEND_WITHIN_MS - OutboxPublisher.RESEND_PAUSE_MAX_MS,
                OutboxPublisher.RESEND_WITHIN_MS + 2_000);
        double attempts = registry.get(RelayStats.SEND_FAILURES).tag("source", "agent").counter().count();
        // 100, 200, 400, 800 ms, then 1 s apart until the next pause would pass the window: about 12 resends
        assertThat(registry.get(RelayStats.BATCHES_RESENT).tag("source", "agent").counter().count())
                .isEqualTo(attempts - 1).isBetween(10.0, 12.0);
        assertThat(registry.get(RelayStats.PUBLISHED).tag("source", "agent").counter().count()).isZero();
    }

    private OutboxPublisher publisher(FlakyProducer producer) {
        return new OutboxPublisher("agent", new OutboxRowReader("agent", "outbox_event"), producer,
                new TopicProbe(null), stats.source("agent"), Clock.systemUTC(), "toolonce.relay.dlq",
                1_000_000, RelayCrashPoints.off());
    }

    private static OutboxChange change(String id, String key) {
        return new OutboxChange(new OutboxRow(id, "toolonce.tool-results", key, "ToolCallCommitted", "/test", null,
                "payload-" + id, null, null, Instant.now()), Instant.now().toEpochMilli() * 1_000L);
    }

    /**
     * Fails the second send of every three (the second row of a batch of three) with a network error
     * {@code failures} times, then behaves; {@link #ALWAYS} fails every send.
     */
    private static final class FlakyProducer extends MockProducer<byte[], byte[]> {
        static final int ALWAYS = -1;
        private final boolean always;
        private int failuresLeft;
        private int sends;

        FlakyProducer(int failures) {
            super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
            this.always = failures == ALWAYS;
            this.failuresLeft = failures;
        }

        @Override
        public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
            boolean second = sends++ % 3 == 1;
            if (always || second && failuresLeft > 0) {
                failuresLeft--;
                NetworkException down = new NetworkException("the broker went away");
                callback.onCompletion(null, down);
                return CompletableFuture.failedFuture(down);
            }
            return super.send(record, callback);
        }
    }
}
