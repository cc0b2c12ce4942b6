package dev.toolonce.executor.intake;

import dev.toolonce.schemas.ToolIntent;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** What the listener made of one record before touching the database. */
sealed interface ParsedIntent {

    /**
     * Readable; goes through intake in the batch transaction. {@code scopeProblem} is non-null when the only
     * schema violations are in the scope fields (docs/protocol.md §2): such an intent is answered
     * {@code REJECTED INVALID_ARGUMENTS} naming the field, not dead-lettered.
     */
    record Accepted(ConsumerRecord<byte[], byte[]> record, String messageId, String payloadHash, ToolIntent intent,
                    String scopeProblem) implements ParsedIntent {
    }

    /** Never reaches the database: dead-lettered synchronously with {@code code}. */
    record Refused(ConsumerRecord<byte[], byte[]> record, String code, String message) implements ParsedIntent {
    }
}
