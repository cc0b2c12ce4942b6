package dev.toolonce.schemas;

import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON encoding of contract events. Parsing keeps numbers exact (BigDecimal) so that the request
 * hash sees what the agent sent, within {@link InputBounds}: depth, string and number limits are
 * enforced while reading, and numbers with absurd exponents are refused before anyone expands them.
 * Thread-safe.
 */
public final class EventCodec {
    private final ObjectMapper mapper = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(InputBounds.constraints()).build())
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** The shared mapper; do not reconfigure it. */
    public ObjectMapper mapper() {
        return mapper;
    }

    /**
     * Parses bytes into a tree.
     *
     * @throws InputBounds.OutOfBoundsException when the JSON exceeds a limit of {@link InputBounds}
     * @throws IllegalArgumentException with the parser's message when the bytes are not JSON
     */
    public JsonNode parse(byte[] bytes) {
        try {
            JsonNode tree = mapper.readTree(bytes);
            if (tree == null || tree.isMissingNode()) {
                throw new IllegalArgumentException("malformed JSON: no content");
            }
            InputBounds.check(tree);
            return tree;
        } catch (StreamConstraintsException e) {
            throw new InputBounds.OutOfBoundsException("input exceeds a limit: " + e.getOriginalMessage(), e);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("malformed JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Reads a schema-valid intent tree into a record. */
    public ToolIntent intent(JsonNode node) {
        return new ToolIntent(text(node, "messageId"), text(node, "tenantId"), text(node, "tool"),
                text(node, "operation"), text(node, "idempotencyKey"), node.get("arguments"),
                text(node, "taskId"), text(node, "stepId"), text(node, "requestedAt"));
    }

    /** Writes an intent as the contract's JSON. */
    public String write(ToolIntent intent) {
        ObjectNode n = mapper.createObjectNode();
        putIfPresent(n, "messageId", intent.messageId());
        n.put("tenantId", intent.tenantId());
        n.put("tool", intent.tool());
        n.put("operation", intent.operation());
        n.put("idempotencyKey", intent.idempotencyKey());
        n.set("arguments", intent.arguments());
        putIfPresent(n, "taskId", intent.taskId());
        putIfPresent(n, "stepId", intent.stepId());
        putIfPresent(n, "requestedAt", intent.requestedAt());
        return mapper.writeValueAsString(n);
    }

    /** Writes a result as the contract's JSON (every field present, nulls explicit). */
    public String write(ToolResult r) {
        ObjectNode n = mapper.createObjectNode();
        n.put("messageId", r.messageId());
        n.put("intentMessageId", r.intentMessageId());
        n.put("tenantId", r.tenantId());
        n.put("tool", r.tool());
        n.put("operation", r.operation());
        n.put("idempotencyKey", r.idempotencyKey());
        n.put("requestHash", r.requestHash());
        n.put("taskId", r.taskId());
        n.put("stepId", r.stepId());
        n.put("callVersion", r.callVersion());
        n.put("status", r.status().name());
        n.put("externalObjectId", r.externalObjectId());
        n.set("result", r.result());
        if (r.error() == null) {
            n.putNull("error");
        } else {
            n.putObject("error").put("code", r.error().code()).put("message", r.error().message());
        }
        n.put("attempts", r.attempts());
        n.put("replayed", r.replayed());
        n.put("completedAt", r.completedAt());
        return mapper.writeValueAsString(n);
    }

    /** Reads a result event. @throws IllegalArgumentException when malformed */
    public ToolResult result(JsonNode n) {
        JsonNode err = n.get("error");
        ToolResult.ResultError error = err == null || err.isNull() ? null
                : new ToolResult.ResultError(text(err, "code"), text(err, "message"));
        JsonNode result = n.get("result");
        return new ToolResult(text(n, "messageId"), text(n, "intentMessageId"), text(n, "tenantId"),
                text(n, "tool"), text(n, "operation"), text(n, "idempotencyKey"), text(n, "requestHash"),
                text(n, "taskId"), text(n, "stepId"), whole(n, "callVersion", MAX_SAFE_INTEGER),
                ResultStatus.valueOf(text(n, "status")), text(n, "externalObjectId"),
                result == null || result.isNull() ? null : result, error,
                (int) whole(n, "attempts", Integer.MAX_VALUE), n.path("replayed").asBoolean(), text(n, "completedAt"));
    }

    private static final long MAX_SAFE_INTEGER = (1L << 53) - 1;

    /** A whole number in {@code [0, max]}; absent reads as 0. @throws IllegalArgumentException otherwise */
    private static long whole(JsonNode n, String field, long max) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return 0;
        }
        java.math.BigDecimal d = v.isNumber() ? v.decimalValue() : null;
        if (d == null || d.signum() < 0 || d.compareTo(java.math.BigDecimal.valueOf(max)) > 0
                || d.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException(field + " must be a whole number from 0 to " + max);
        }
        return d.longValueExact();
    }

    private static void putIfPresent(ObjectNode n, String field, String value) {
        if (value != null) {
            n.put(field, value);
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asString();
    }
}
