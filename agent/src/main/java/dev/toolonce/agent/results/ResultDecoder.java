package dev.toolonce.agent.results;

import dev.toolonce.messaging.IsolatingBatchProcessor.Decoded;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.ContractValidator;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.InputBounds;
import dev.toolonce.schemas.ToolResult;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import tools.jackson.databind.JsonNode;

/**
 * Turns a raw result record into a {@link Readable} result or a refusal naming what is wrong, before anything
 * touches the database: JSON within {@link InputBounds}, valid against the result schema (which keeps control
 * characters out of every stored field), {@code ce_id} equal to the body's {@code messageId}. Never throws for bad
 * input. Thread-safe.
 */
public final class ResultDecoder {
    private final EventCodec codec = new EventCodec();
    private final ContractValidator validator = new ContractValidator();

    /** A readable result and its message id. */
    public record Readable(ConsumerRecord<byte[], byte[]> record, String messageId, ToolResult result) {
    }

    /** @return the readable result, or a refusal with its DLQ code */
    public Decoded<Readable> decode(ConsumerRecord<byte[], byte[]> r) {
        if (r.value() == null || r.value().length == 0) {
            return new Decoded.Refused<>(r, "UNREADABLE_RESULT", "record value is empty");
        }
        JsonNode tree;
        try {
            tree = codec.parse(r.value());
        } catch (InputBounds.OutOfBoundsException e) {
            return new Decoded.Refused<>(r, "INPUT_OUT_OF_BOUNDS", e.getMessage());
        } catch (IllegalArgumentException e) {
            return new Decoded.Refused<>(r, "UNREADABLE_RESULT", e.getMessage());
        }
        List<String> violations = validator.validateResult(tree);
        if (!violations.isEmpty()) {
            return new Decoded.Refused<>(r, "SCHEMA_INVALID", "result violates the schema: " + String.join("; ", violations));
        }
        ToolResult result;
        try {
            result = codec.result(tree);
        } catch (IllegalArgumentException e) {
            return new Decoded.Refused<>(r, "SCHEMA_INVALID", e.getMessage());
        }
        Header ce = r.headers().lastHeader(Contract.CE_ID);
        String header = ce == null || ce.value() == null ? null : new String(ce.value(), StandardCharsets.UTF_8);
        if (header != null && !header.equals(result.messageId())) {
            return new Decoded.Refused<>(r, "MESSAGE_ID_CONFLICT",
                    "ce_id '" + InputBounds.identifier(header, InputBounds.MAX_ID_CHARS) + "' differs from messageId '"
                            + result.messageId() + "'");
        }
        return new Decoded.Item<>(r, new Readable(r, result.messageId(), result));
    }
}
