package dev.toolonce.core.call;

import java.util.regex.Pattern;

/**
 * The identity of one logical operation: {@code (tenantId, tool, operation, idempotencyKey)}.
 * Every retry of the operation reuses it; a new key is a new operation.
 *
 * @throws InvalidArgumentsException from the constructor, naming the field, when a part is malformed
 */
public record CallScope(String tenantId, String tool, String operation, String idempotencyKey) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern KEY = Pattern.compile("[\\x20-\\x7E]{1,255}");

    public CallScope {
        requireMatch("tenantId", tenantId, NAME, "1-64 characters of [A-Za-z0-9._-]");
        requireMatch("tool", tool, NAME, "1-64 characters of [A-Za-z0-9._-]");
        requireMatch("operation", operation, NAME, "1-64 characters of [A-Za-z0-9._-]");
        requireMatch("idempotencyKey", idempotencyKey, KEY, "1-255 printable ASCII characters");
    }

    /** {@code tenant/tool/operation/key}: the contract's Kafka record key and {@code ce_subject}. */
    public String recordKey() {
        return tenantId + "/" + tool + "/" + operation + "/" + idempotencyKey;
    }

    @Override
    public String toString() {
        return recordKey();
    }

    private static void requireMatch(String field, String value, Pattern pattern, String rule) {
        if (value == null) {
            throw new InvalidArgumentsException(field, "is missing");
        }
        if (!pattern.matcher(value).matches()) {
            throw new InvalidArgumentsException(field, "must be " + rule);
        }
    }
}
