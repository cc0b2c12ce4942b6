package dev.toolonce.executor.intake;

import dev.toolonce.schemas.ToolIntent;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** What the listener made of one record before touching the database. */
sealed interface ParsedIntent {

    /**
     * Readable; goes through intake in the batch transaction. {@code scopeProblem} is non-null when the only
     * schema violations are in the scope fields (docs/protocol.md §2): such an intent is answered
     * {@code REJECTED INVALID_ARGUMENTS} naming the field, not dead-lettered. {@code traceparent} is the record's
     * header when it is a valid W3C trace context, else null (docs/contract.md §14).
     */
    record Accepted(ConsumerRecord<byte[], byte[]> record, String messageId, String payloadHash, ToolIntent intent,
                    String scopeProblem, String traceparent) implements ParsedIntent {
    }

    /** Never reaches the database: dead-lettered synchronously with {@code code}. */
    record Refused(ConsumerRecord<byte[], byte[]> record, String code, String message) implements ParsedIntent {
    }
}
