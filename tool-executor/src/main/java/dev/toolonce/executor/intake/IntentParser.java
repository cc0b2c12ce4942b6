package dev.toolonce.executor.intake;

import dev.toolonce.jdbc.PayloadHash;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.ContractValidator;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.InputBounds;
import dev.toolonce.schemas.TraceParent;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import tools.jackson.databind.JsonNode;

/**
 * Turns a raw intent record into an {@link ParsedIntent.Accepted} intent or a {@link ParsedIntent.Refused}
 * one that names what is wrong. Never throws for bad input.
 */
public final class IntentParser {
    private final EventCodec codec;
    private final ContractValidator validator;
    private final int maxPayloadBytes;

    public IntentParser(EventCodec codec, ContractValidator validator, int maxPayloadBytes) {
        this.codec = codec;
        this.validator = validator;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    ParsedIntent parse(ConsumerRecord<byte[], byte[]> record) {
        byte[] value = record.value();
        if (value == null || value.length == 0) {
            return new ParsedIntent.Refused(record, "MALFORMED_JSON", "record value is empty");
        }
        if (value.length > maxPayloadBytes) {
            return new ParsedIntent.Refused(record, "PAYLOAD_TOO_LARGE",
                    "intent is " + value.length + " bytes, the limit is " + maxPayloadBytes);
        }
        JsonNode tree;
        try {
            tree = codec.parse(value);
        } catch (InputBounds.OutOfBoundsException e) {
            return new ParsedIntent.Refused(record, "INPUT_OUT_OF_BOUNDS", e.getMessage());
        } catch (IllegalArgumentException e) {
            return new ParsedIntent.Refused(record, "MALFORMED_JSON", e.getMessage());
        }
        List<String> violations = validator.validateIntent(tree);
        if (!violations.isEmpty() && !onlyScopeViolations(tree, violations)) {
            return new ParsedIntent.Refused(record, "SCHEMA_INVALID", String.join("; ", violations));
        }
        return withMessageId(record, tree, violations.isEmpty() ? null : String.join("; ", violations));
    }

    /**
     * Every required field is there with its JSON type, and only the scope fields break their patterns — in a
     * way the answer can echo safely (no control characters, not absurdly long); anything worse is dead-lettered.
     */
    private static boolean onlyScopeViolations(JsonNode tree, List<String> violations) {
        boolean shaped = tree.isObject() && tree.path("arguments").isObject()
                && SCOPE_FIELDS.stream().allMatch(f -> tree.path(f).isString()
                        && echoable(tree.path(f).asString()));
        return shaped && violations.stream().allMatch(v -> SCOPE_FIELDS.stream().anyMatch(f -> v.startsWith("/" + f + ":")));
    }

    private static boolean echoable(String value) {
        return value.length() <= InputBounds.MAX_LONG_ID_CHARS && !InputBounds.hasControl(value);
    }

    private static final List<String> SCOPE_FIELDS = List.of("tenantId", "tool", "operation", "idempotencyKey");

    private ParsedIntent withMessageId(ConsumerRecord<byte[], byte[]> record, JsonNode tree, String scopeProblem) {
        String header = header(record, Contract.CE_ID);
        if (header != null && (header.isEmpty() || header.length() > InputBounds.MAX_ID_CHARS || InputBounds.hasControl(header))) {
            return new ParsedIntent.Refused(record, "INVALID_MESSAGE_ID", "the ce_id header must be 1-"
                    + InputBounds.MAX_ID_CHARS + " characters without control characters");
        }
        JsonNode body = tree.get("messageId");
        String bodyId = body == null || body.isNull() ? null : body.asString();
        if (header != null && bodyId != null && !header.equals(bodyId)) {
            return new ParsedIntent.Refused(record, "MESSAGE_ID_CONFLICT",
                    "ce_id header '" + header + "' differs from the body's messageId '" + bodyId + "'");
        }
        String id = header != null ? header
                : bodyId != null ? bodyId
                : record.topic() + "-" + record.partition() + "-" + record.offset();
        return new ParsedIntent.Accepted(record, id, PayloadHash.of(record.value()),
                codec.intent(tree).withMessageId(id), scopeProblem,
                TraceParent.valid(header(record, Contract.TRACEPARENT)));
    }

    static String header(ConsumerRecord<?, ?> record, String name) {
        Header h = record.headers().lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
