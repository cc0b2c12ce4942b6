package dev.toolonce.relay.publish;

/**
 * An outbox row together with the commit time of the transaction that inserted it.
 *
 * @param row          the row; never null
 * @param commitMicros commit time at the source, microseconds since the epoch (Debezium's
 *                     {@code source.ts_us}); the start of the commit→ack latency
 */
public record OutboxChange(OutboxRow row, long commitMicros) {
}
