package dev.toolonce.relay.publish;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;

import dev.toolonce.schemas.Contract;

/**
 * Builds dead-letter records: same key, value and headers as the record that could not be
 * published, plus {@code toolonce.error.code}, {@code toolonce.error.message} and
 * {@code toolonce.original.topic}. A record that is too large for Kafka keeps everything but its
 * value (the row stays in the outbox table; {@code ce_id} finds it) and says so in
 * {@code toolonce.original.value-bytes}. The header names are the contract's ({@link Contract},
 * docs/contract.md §11). Pure.
 */
public final class DeadLetters {

    private DeadLetters() {
    }

    /**
     * @param original   the record that failed
     * @param topic      the dead-letter topic
     * @param failure    why it failed
     * @param dropValue  whether to leave the value out (the value itself is too large)
     * @return a new record for the dead-letter topic; never null
     */
    public static ProducerRecord<byte[], byte[]> of(ProducerRecord<byte[], byte[]> original, String topic,
                                                    SendFailure failure, boolean dropValue) {
        RecordHeaders headers = new RecordHeaders();
        for (Header h : original.headers()) {
            headers.add(h.key(), h.value());
        }
        headers.add(Contract.DLQ_ERROR_CODE, utf8(failure.code()));
        headers.add(Contract.DLQ_ERROR_MESSAGE, utf8(failure.message()));
        headers.add(Contract.DLQ_ORIGINAL_TOPIC, utf8(original.topic()));
        byte[] value = original.value();
        if (dropValue && value != null) {
            headers.add(Contract.DLQ_ORIGINAL_VALUE_BYTES, utf8(Integer.toString(value.length)));
            value = null;
        }
        return new ProducerRecord<>(topic, null, original.key(), value, headers);
    }

    /** Size of a record as Kafka counts it, plus a margin for the record and batch framing. */
    public static long estimatedSize(ProducerRecord<byte[], byte[]> record) {
        long size = 128;
        size += record.key() == null ? 0 : record.key().length;
        size += record.value() == null ? 0 : record.value().length;
        for (Header h : record.headers()) {
            size += h.key().getBytes(StandardCharsets.UTF_8).length + (h.value() == null ? 0 : h.value().length) + 8;
        }
        return size;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
