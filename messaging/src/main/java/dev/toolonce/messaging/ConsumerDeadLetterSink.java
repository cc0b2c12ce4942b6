package dev.toolonce.messaging;

import dev.toolonce.schemas.Contract;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * The consumers' dead-letter sink (executor intake, result consumer): sends a consumed record that never reached
 * the database to the dead-letter topic, synchronously: the caller commits the offset only after this returned
 * (docs/protocol.md §14, docs/contract.md §11). Key, value and original headers are kept; the contract's
 * {@code toolonce.*} headers say why and where from. The relay has a dead-letter path of its own for outbox rows
 * Kafka refuses ({@code dev.toolonce.relay.publish.DeadLetters}).
 */
public final class ConsumerDeadLetterSink implements IsolatingBatchProcessor.DeadLetterSink {
    private static final Logger log = LoggerFactory.getLogger(ConsumerDeadLetterSink.class);
    private static final int MAX_MESSAGE_CHARS = 2000;

    private final KafkaTemplate<byte[], byte[]> kafka;
    private final String topic;

    public ConsumerDeadLetterSink(KafkaTemplate<byte[], byte[]> kafka, String topic) {
        this.kafka = kafka;
        this.topic = topic;
    }

    /** @throws IllegalStateException when the DLQ did not acknowledge (the batch is then redelivered) */
    @Override
    public void send(ConsumerRecord<byte[], byte[]> record, String code, String message) {
        ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(topic, null, record.key(), record.value(),
                record.headers());
        Headers h = out.headers();
        h.add(Contract.DLQ_ERROR_CODE, utf8(code));
        h.add(Contract.DLQ_ERROR_MESSAGE, utf8(truncate(message)));
        h.add(Contract.DLQ_ORIGINAL_TOPIC, utf8(record.topic()));
        h.add(Contract.DLQ_ORIGINAL_PARTITION, utf8(Integer.toString(record.partition())));
        h.add(Contract.DLQ_ORIGINAL_OFFSET, utf8(Long.toString(record.offset())));
        h.add(Contract.DLQ_ORIGINAL_TIMESTAMP, utf8(Long.toString(record.timestamp())));
        try {
            kafka.send(out).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while dead-lettering", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("dead-letter topic " + topic + " did not acknowledge", e);
        }
        log.warn("dead-lettered {}-{}@{}: {} {}", record.topic(), record.partition(), record.offset(), code,
                truncate(message));
    }

    private static String truncate(String s) {
        return s == null ? "" : s.length() <= MAX_MESSAGE_CHARS ? s : s.substring(0, MAX_MESSAGE_CHARS) + "…";
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
