package dev.toolonce.relay.publish;

import java.time.Instant;
import java.util.Objects;

/**
 * One inserted row of an {@code outbox_event} table, as decoded from the WAL.
 *
 * @param id            the message id (becomes {@code ce_id}); never null
 * @param aggregateType the Kafka topic to publish to; never null
 * @param aggregateId   the Kafka record key; never null
 * @param eventType     {@code ce_type}; never null
 * @param source        {@code ce_source}; never null
 * @param subject       {@code ce_subject}; null when the row has none
 * @param payload       the record value exactly as stored; never null
 * @param traceparent   W3C traceparent; null when the row has none
 * @param signature     the writer's {@code toolonce-signature} (docs/contract.md §4a), published as it is; null when
 *                      the row has none (or its table no such column)
 * @param createdAt     the row's {@code created_at} (becomes {@code ce_time}); never null
 */
public record OutboxRow(String id, String aggregateType, String aggregateId, String eventType, String source,
                        String subject, String payload, String traceparent, String signature,
                        Instant createdAt) {

    /** Rejects a row that lacks a NOT NULL column (a table of another shape). */
    public OutboxRow {
        Objects.requireNonNull(id, "outbox row without id");
        Objects.requireNonNull(aggregateType, () -> "outbox row " + id + " without aggregate_type");
        Objects.requireNonNull(aggregateId, () -> "outbox row " + id + " without aggregate_id");
        Objects.requireNonNull(eventType, () -> "outbox row " + id + " without event_type");
        Objects.requireNonNull(source, () -> "outbox row " + id + " without source");
        Objects.requireNonNull(payload, () -> "outbox row " + id + " without payload");
        Objects.requireNonNull(createdAt, () -> "outbox row " + id + " without created_at");
    }
}
