package dev.toolonce.jdbc;

import java.util.UUID;

/**
 * One row of {@code outbox_event}: an event that the relay publishes to Kafka after the transaction
 * that wrote it commits.
 *
 * @param id          the message id, becomes {@code ce_id}; never null
 * @param topic       the Kafka topic ({@code aggregate_type}); never null
 * @param key         the Kafka record key ({@code aggregate_id}); never null
 * @param type        {@code ce_type}; never null
 * @param source      {@code ce_source}; never null
 * @param subject     {@code ce_subject}; nullable
 * @param payload     the JSON text, published byte for byte; never null
 * @param traceparent W3C trace context; nullable
 */
public record OutboxEvent(UUID id, String topic, String key, String type, String source, String subject,
                          String payload, String traceparent) {
}
