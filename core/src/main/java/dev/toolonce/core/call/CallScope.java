package dev.toolonce.core.call;

import dev.toolonce.schemas.ContractPatterns;
import java.util.function.Predicate;

/**
 * The identity of one logical operation: {@code (tenantId, tool, operation, idempotencyKey)}.
 * Every retry of the operation reuses it; a new key is a new operation.
 *
 * @throws InvalidArgumentsException from the constructor, naming the field, when a part is malformed
 */
public record CallScope(String tenantId, String tool, String operation, String idempotencyKey) {
    private static final Predicate<String> NAME = ContractPatterns::isName;
    private static final Predicate<String> KEY = k -> ContractPatterns.isPrintableAscii(k, 255);

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

    private static void requireMatch(String field, String value, Predicate<String> rule, String ruleText) {
        if (value == null) {
            throw new InvalidArgumentsException(field, "is missing");
        }
        if (!rule.test(value)) {
            throw new InvalidArgumentsException(field, "must be " + ruleText);
        }
    }
}
