package dev.toolonce.core.adapter;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the executor knows about one tool, independent of how it is reached. Validated on construction,
 * so an adapter with an inconsistent description cannot exist.
 *
 * @param name              tool name as in intents ({@code [A-Za-z0-9._-]{1,64}})
 * @param operations        the operations intents may name; not empty
 * @param capabilities      what the tool can do; never null (copied)
 * @param idempotencyWindow how long the provider itself remembers an idempotency key; required with
 *                          {@link Capability#NATIVE_IDEMPOTENCY}, else null
 * @param connectTimeout    TCP connect timeout, positive
 * @param readTimeout       time allowed for the response once sent, positive
 * @param totalTimeout      the longest one attempt may take, at least {@code readTimeout}
 * @param lease             claim lease of a call of this tool; longer than {@code totalTimeout}
 * @param settleDelay       wait after an unknown outcome before asking the tool; not negative
 * @throws IllegalArgumentException naming the tool and the field
 */
public record ToolDescriptor(
        String name,
        Set<String> operations,
        Set<Capability> capabilities,
        Duration idempotencyWindow,
        Duration connectTimeout,
        Duration readTimeout,
        Duration totalTimeout,
        Duration lease,
        Duration settleDelay) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    public ToolDescriptor {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("tool name must be 1-64 characters of [A-Za-z0-9._-], was " + name);
        }
        if (operations == null || operations.isEmpty()) {
            throw fail(name, "operations", "at least one operation is required");
        }
        for (String op : operations) {
            if (op == null || !NAME.matcher(op).matches()) {
                throw fail(name, "operations", "operation name must be 1-64 characters of [A-Za-z0-9._-], was " + op);
            }
        }
        operations = Set.copyOf(operations);
        capabilities = capabilities == null || capabilities.isEmpty()
                ? Set.of() : Set.copyOf(EnumSet.copyOf(capabilities));
        if (capabilities.contains(Capability.NATIVE_IDEMPOTENCY) != (idempotencyWindow != null)) {
            throw fail(name, "idempotency-window", "is required with NATIVE_IDEMPOTENCY and only with it");
        }
        if (idempotencyWindow != null) {
            positive(name, "idempotency-window", idempotencyWindow);
        }
        if (capabilities.contains(Capability.COMPENSATION) && capabilities.contains(Capability.IRREVERSIBLE)) {
            throw fail(name, "capabilities", "COMPENSATION and IRREVERSIBLE exclude each other");
        }
        positive(name, "connect-timeout", connectTimeout);
        positive(name, "read-timeout", readTimeout);
        positive(name, "total-timeout", totalTimeout);
        if (totalTimeout.compareTo(readTimeout) < 0) {
            throw fail(name, "total-timeout", totalTimeout + " is shorter than read-timeout " + readTimeout);
        }
        positive(name, "lease", lease);
        if (lease.compareTo(totalTimeout) <= 0) {
            throw fail(name, "lease", lease + " is not longer than total-timeout " + totalTimeout);
        }
        if (settleDelay == null || settleDelay.isNegative()) {
            throw fail(name, "settle-delay", "must not be negative, was " + settleDelay);
        }
    }

    /** Whether the tool has {@code c}. */
    public boolean has(Capability c) {
        return capabilities.contains(c);
    }

    /** True when a retry after a confirmed-absent lookup cannot create a second effect (docs/protocol.md §10). */
    public boolean retrySafe() {
        return has(Capability.NATIVE_IDEMPOTENCY) || has(Capability.UNIQUE_REFERENCE);
    }

    /** True when an earlier attempt can be looked up at all. */
    public boolean canLookUp() {
        return has(Capability.LOOKUP_BY_KEY) || has(Capability.LOOKUP_BY_REFERENCE);
    }

    private static void positive(String tool, String field, Duration d) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw fail(tool, field, "must be positive, was " + d);
        }
    }

    private static IllegalArgumentException fail(String tool, String field, String why) {
        return new IllegalArgumentException("tool '" + tool + "': " + field + " " + why);
    }
}
