package dev.toolonce.relay.publish;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.toolonce.relay.config.RelayProperties;
import dev.toolonce.relay.faults.RelayCrashPoints;
import dev.toolonce.relay.stats.RelayStats;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;

/**
 * The engine's change consumer for one source: sends every outbox insert of a batch to the
 * topic its row names, waits for every acknowledgement (or its dead-letter acknowledgement),
 * and only then marks the batch processed, which lets Debezium store the position and confirm it
 * to the slot. After a failure that a retry may cure (the broker restarting, say) the whole batch is sent again in
 * place, in order, for up to {@link #RESEND_WITHIN_MS}; if it still fails, {@link RetryBatchException} leaves
 * the batch unmarked and the batch arrives again after the engine restarts. Either way some of its rows may reach
 * Kafka twice, which the consumers' inboxes absorb (docs/protocol.md §5).
 */
public final class OutboxPublisher implements DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> {

    private static final Logger log = LoggerFactory.getLogger(OutboxPublisher.class);

    /**
     * How long a batch is sent again in place before the engine is restarted instead (which costs 1–2 s of
     * start-up): a broker's restart after a SIGKILL takes 4–6 s, and a send blocked waiting for metadata gives up
     * after {@link KafkaClients#MAX_BLOCK_MS}.
     */
    static final long RESEND_WITHIN_MS = 10_000;
    /** The pause before the first resend, doubling up to {@link #RESEND_PAUSE_MAX_MS}. */
    static final long RESEND_PAUSE_MS = 100;
    static final long RESEND_PAUSE_MAX_MS = 1_000;

    private final String sourceName;
    private final OutboxRowReader reader;
    private final Producer<byte[], byte[]> producer;
    private final TopicProbe probe;
    private final RelayStats.SourceMeters meters;
    private final Clock clock;
    private final String deadLetterTopic;
    private final long maxRecordBytes;
    private final RelayCrashPoints crashPoints;

    public OutboxPublisher(String sourceName, OutboxRowReader reader, Producer<byte[], byte[]> producer,
                           TopicProbe probe, RelayStats.SourceMeters meters, Clock clock, String deadLetterTopic,
                           long maxRecordBytes, RelayCrashPoints crashPoints) {
        this.sourceName = sourceName;
        this.reader = reader;
        this.producer = producer;
        this.probe = probe;
        this.meters = meters;
        this.clock = clock;
        this.deadLetterTopic = deadLetterTopic;
        this.maxRecordBytes = maxRecordBytes;
        this.crashPoints = crashPoints;
    }

    @Override
    public void handleBatch(List<RecordChangeEvent<SourceRecord>> records,
                            DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
            throws InterruptedException {
        List<OutboxChange> changes = new ArrayList<>(records.size());
        for (RecordChangeEvent<SourceRecord> event : records) {
            reader.read(event.record()).ifPresent(changes::add);
        }
        if (!changes.isEmpty()) {
            crashPoints.reach(RelayCrashPoints.AFTER_READ);
        }
        sendAll(changes, true);
        if (!changes.isEmpty()) {
            crashPoints.reach(RelayCrashPoints.AFTER_SEND);
        }
        for (RecordChangeEvent<SourceRecord> event : records) {
            committer.markProcessed(event);
        }
        committer.markBatchFinished();
    }

    /**
     * Sends rows that did not come from the engine (a snapshot of the outbox table) exactly as a
     * batch is sent: each to its topic or, when Kafka can never take it, to the dead-letter topic;
     * returns once every one is acknowledged.
     *
     * @param changes        the rows
     * @param measureLatency whether their commit→ack time counts in the latency figures (not for
     *                       old rows of a snapshot)
     * @throws RetryBatchException when a send failed for a reason a retry may cure; some rows
     *         may have been sent (sending them again is allowed)
     */
    public void publish(List<OutboxChange> changes, boolean measureLatency) throws InterruptedException {
        sendAll(changes, measureLatency);
    }

    /** Sends every row and waits for every acknowledgement; sends them all again, in order, while a retry may cure. */
    private void sendAll(List<OutboxChange> changes, boolean measureLatency) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RESEND_WITHIN_MS);
        long pause = RESEND_PAUSE_MS;
        while (true) {
            Batch batch = new Batch(measureLatency);
            try {
                for (OutboxChange change : changes) {
                    batch.submit(change);
                }
                batch.awaitAll();
                return;
            } catch (RetryBatchException e) {
                if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pause) - deadline > 0) {
                    throw e;
                }
                log.warn("{} ({}); sending the batch of {} rows again in {} ms", e.getMessage(), e.getCause(),
                        changes.size(), pause);
                meters.resent();
                Thread.sleep(pause);
                pause = Math.min(pause * 2, RESEND_PAUSE_MAX_MS);
            }
        }
    }

    /** The Kafka record of a row: topic = aggregate_type, key = aggregate_id, value = payload bytes. */
    public static ProducerRecord<byte[], byte[]> toRecord(OutboxRow row) {
        return new ProducerRecord<>(row.aggregateType(), null,
                row.aggregateId().getBytes(StandardCharsets.UTF_8),
                row.payload().getBytes(StandardCharsets.UTF_8),
                CloudEventHeaders.of(row));
    }

    /** One handleBatch call: the sends in flight and what became of them. */
    private final class Batch {
        private final boolean measureLatency;
        private final List<Pending> pending = new ArrayList<>();
        private final List<Pending> deadLetters = new ArrayList<>();
        private final Map<String, Boolean> missingTopics = new HashMap<>();

        Batch(boolean measureLatency) {
            this.measureLatency = measureLatency;
        }

        void submit(OutboxChange change) throws InterruptedException {
            ProducerRecord<byte[], byte[]> record = toRecord(change.row());
            if (DeadLetters.estimatedSize(record) > maxRecordBytes) {
                deadLetter(change, record, new SendFailure(true, SendFailure.RECORD_TOO_LARGE, "record of about "
                        + DeadLetters.estimatedSize(record) + " bytes exceeds toolonce.relay.max-record-bytes="
                        + maxRecordBytes), true);
            } else if (!RelayProperties.validTopic(record.topic())) {
                deadLetter(change, record, new SendFailure(true, SendFailure.INVALID_TOPIC,
                        "aggregate_type '" + record.topic() + "' is not a valid Kafka topic name"), false);
            } else if (Boolean.TRUE.equals(missingTopics.get(record.topic()))) {
                deadLetter(change, record, unknownTopic(record.topic()), false);
            } else {
                Pending p = new Pending(change, record, send(record, measureLatency ? change.commitMicros() : -1), false);
                pending.add(p);
                checkMissingTopic(p);
            }
        }

        /** A metadata timeout surfaces at once (send blocked for max.block.ms); ask the cluster why. */
        private void checkMissingTopic(Pending p) throws InterruptedException {
            Throwable failure = failureIfDone(p.future);
            if (failure != null && SendFailure.isMissingMetadata(failure)) {
                String topic = p.record.topic();
                if (!missingTopics.containsKey(topic)) {
                    missingTopics.put(topic, probe.isMissing(topic));
                }
            }
        }

        void awaitAll() throws InterruptedException {
            for (Pending p : pending) {
                Throwable failure = outcome(p.future);
                if (failure == null) {
                    continue;
                }
                SendFailure classified = SendFailure.isMissingMetadata(failure)
                        && Boolean.TRUE.equals(missingTopics.get(p.record.topic()))
                        ? unknownTopic(p.record.topic()) : SendFailure.classify(failure);
                if (!classified.deadLetter()) {
                    meters.sendFailed();
                    throw new RetryBatchException("source '" + sourceName + "': sending ce_id " + p.change.row().id()
                            + " to " + p.record.topic() + " failed; the batch will be delivered again", failure);
                }
                deadLetter(p.change, p.record, classified, false);
            }
            for (Pending d : deadLetters) {
                awaitDeadLetter(d);
            }
        }

        private void deadLetter(OutboxChange change, ProducerRecord<byte[], byte[]> record, SendFailure failure,
                                boolean dropValue) {
            log.warn("Source '{}': row ce_id={} for topic '{}' goes to dead-letter topic {}: {} {}", sourceName,
                    change.row().id(), record.topic(), deadLetterTopic, failure.code(), failure.message());
            ProducerRecord<byte[], byte[]> dead = DeadLetters.of(record, deadLetterTopic, failure, dropValue);
            deadLetters.add(new Pending(change, dead, sendDeadLetter(dead, failure.code()), dropValue));
        }

        private void awaitDeadLetter(Pending d) throws InterruptedException {
            Throwable failure = outcome(d.future);
            if (failure == null) {
                return;
            }
            SendFailure classified = SendFailure.classify(failure);
            if (SendFailure.RECORD_TOO_LARGE.equals(classified.code()) && !d.valueDropped) {
                ProducerRecord<byte[], byte[]> smaller = DeadLetters.of(d.record, deadLetterTopic, classified, true);
                awaitDeadLetter(new Pending(d.change, smaller, sendDeadLetter(smaller, classified.code()), true));
                return;
            }
            meters.sendFailed();
            throw new RetryBatchException("source '" + sourceName + "': dead-lettering ce_id " + d.change.row().id()
                    + " to " + deadLetterTopic + " failed; the batch will be delivered again", failure);
        }

        private SendFailure unknownTopic(String topic) {
            return new SendFailure(true, SendFailure.UNKNOWN_TOPIC, "topic '" + topic
                    + "' does not exist (the relay does not create topics)");
        }
    }

    /** @param commitMicros the row's commit time, or -1 when its latency is not measured */
    private Future<?> send(ProducerRecord<byte[], byte[]> record, long commitMicros) {
        try {
            return producer.send(record, (metadata, error) -> {
                if (error == null && commitMicros >= 0) {
                    meters.published(nowMicros() - commitMicros);
                } else if (error == null) {
                    meters.publishedUnmeasured();
                }
            });
        } catch (KafkaException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** @param code why the record is dead-lettered, the {@code code} tag of its count */
    private Future<?> sendDeadLetter(ProducerRecord<byte[], byte[]> record, String code) {
        try {
            return producer.send(record, (metadata, error) -> {
                if (error == null) {
                    meters.deadLettered(code);
                }
            });
        } catch (KafkaException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private long nowMicros() {
        Instant now = clock.instant();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000L;
    }

    /** Waits for the future; returns its failure, or null when it succeeded. */
    private static Throwable outcome(Future<?> future) throws InterruptedException {
        try {
            future.get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause() == null ? e : e.getCause();
        }
    }

    private static Throwable failureIfDone(Future<?> future) throws InterruptedException {
        return future.isDone() ? outcome(future) : null;
    }

    private record Pending(OutboxChange change, ProducerRecord<byte[], byte[]> record, Future<?> future,
                           boolean valueDropped) {
    }
}
