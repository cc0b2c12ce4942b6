package dev.toolonce.executor.intake;

import dev.toolonce.core.call.Compensation;
import dev.toolonce.jdbc.PayloadHash;
import dev.toolonce.messaging.SignedRecords;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.ContractValidator;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.InputBounds;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.TraceParent;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.schemas.signing.Verdict;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import tools.jackson.databind.JsonNode;

/**
 * Turns a raw intent record into an {@link ParsedIntent.Accepted} intent or a {@link ParsedIntent.Refused}
 * one that names what is wrong. Never throws for bad input.
 *
 * <p>A record is read only when a key of the keyring signed it (docs/security.md §6b), and accepted only when that key
 * may sign its kind for its tenant: an intent needs the {@code intent} power, a compensation request (type
 * {@link Contract#COMPENSATION_TYPE}, the only way to name an {@code <op>.compensate} operation) the {@code compensate}
 * power. Everything else is refused before any effect, with a code of its own.
 */
public final class IntentParser {
    private final EventCodec codec;
    private final ContractValidator validator;
    private final int maxPayloadBytes;
    private final Keyring keyring;

    public IntentParser(EventCodec codec, ContractValidator validator, int maxPayloadBytes, Keyring keyring) {
        this.codec = codec;
        this.validator = validator;
        this.maxPayloadBytes = maxPayloadBytes;
        this.keyring = keyring;
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
        String type = header(record, Contract.CE_TYPE);
        Verdict verdict = SignedRecords.verify(keyring, record);
        if (verdict instanceof Verdict.Refused r) {
            return new ParsedIntent.Refused(record, r.code(), r.message());
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
        ParsedIntent parsed = withMessageId(record, tree, violations.isEmpty() ? null : String.join("; ", violations));
        return parsed instanceof ParsedIntent.Accepted a ? authorized(a, type, (Verdict.Signed) verdict) : parsed;
    }

    /** The kind of the record and the key's powers: the only door to a compensation is its own record type. */
    private static ParsedIntent authorized(ParsedIntent.Accepted a, String type, Verdict.Signed signed) {
        ToolIntent intent = a.intent();
        boolean compensation = Compensation.isCompensation(intent.operation());
        Power power;
        if (type == null || Contract.INTENT_TYPE.equals(type)) {
            if (compensation) {
                return new ParsedIntent.Refused(a.record(), OPERATION_NOT_REQUESTABLE, "'" + intent.operation()
                        + "' is a compensation: ask for it with a " + Contract.COMPENSATION_TYPE + " record");
            }
            power = Power.INTENT;
        } else if (Contract.COMPENSATION_TYPE.equals(type)) {
            if (!compensation) {
                return new ParsedIntent.Refused(a.record(), OPERATION_NOT_REQUESTABLE, "a compensation request must name"
                        + " <operation>" + Compensation.SUFFIX + ", not '" + intent.operation() + "'");
            }
            power = Power.COMPENSATE;
        } else {
            return new ParsedIntent.Refused(a.record(), "SCHEMA_INVALID", "ce_type must be " + Contract.INTENT_TYPE
                    + " or " + Contract.COMPENSATION_TYPE);
        }
        Verdict.Refused refused = signed.authorize(power, intent.tenantId());
        return refused == null ? a : new ParsedIntent.Refused(a.record(), refused.code(), refused.message());
    }

    static final String OPERATION_NOT_REQUESTABLE = "OPERATION_NOT_REQUESTABLE";

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
        return SignedRecords.header(record, name);
    }
}
