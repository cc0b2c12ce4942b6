package dev.toolonce.jdbc;

import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Power;
import java.nio.charset.StandardCharsets;
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
 * @param signature   the {@code toolonce-signature} header (docs/contract.md §4a); null for an unsigned row
 */
public record OutboxEvent(UUID id, String topic, String key, String type, String source, String subject,
                          String payload, String traceparent, String signature) {

    /** An unsigned row (the relay's own benchmarks; nothing a ToolOnce consumer acts on). */
    public OutboxEvent(UUID id, String topic, String key, String type, String source, String subject, String payload,
                       String traceparent) {
        this(id, topic, key, type, source, subject, payload, traceparent, null);
    }

    /**
     * @return this row signed by the keyring's key for {@code power} and {@code tenant}, over exactly the bytes the
     *     relay will publish
     * @throws IllegalStateException when the keyring holds no such key
     */
    public OutboxEvent signedBy(Keyring keyring, Power power, String tenant) {
        return new OutboxEvent(id, topic, key, type, source, subject, payload, traceparent,
                keyring.sign(power, tenant, type, id.toString(), payload.getBytes(StandardCharsets.UTF_8)));
    }
}
