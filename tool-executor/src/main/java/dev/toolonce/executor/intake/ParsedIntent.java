package dev.toolonce.executor.intake;

import dev.toolonce.schemas.ToolIntent;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** What the listener made of one record before touching the database. */
sealed interface ParsedIntent {

    /** Schema-valid; goes through intake in the batch transaction. */
    record Accepted(ConsumerRecord<byte[], byte[]> record, String messageId, String payloadHash, ToolIntent intent)
            implements ParsedIntent {
    }

    /** Never reaches the database: dead-lettered synchronously with {@code code}. */
    record Refused(ConsumerRecord<byte[], byte[]> record, String code, String message) implements ParsedIntent {
    }
}
