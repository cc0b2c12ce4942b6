package dev.toolonce.core.adapter;

/**
 * What a tool can do for the protocol (docs/adapters.md §2). The executor derives its safety decisions
 * from these, never from the tool's name: only {@link #NATIVE_IDEMPOTENCY} or {@link #UNIQUE_REFERENCE}
 * make a retry after a confirmed-absent lookup safe.
 */
public enum Capability {
    /** The provider deduplicates by an idempotency header within its own window. */
    NATIVE_IDEMPOTENCY,
    /** The provider refuses a second create with the same external reference (the provider key). */
    UNIQUE_REFERENCE,
    /** The provider creates only if a precondition holds (e.g. {@code If-None-Match}). */
    CONDITIONAL_CREATE,
    /** An earlier attempt can be looked up by the provider key sent as idempotency key. */
    LOOKUP_BY_KEY,
    /** An earlier attempt can be looked up by the provider key sent as external reference. */
    LOOKUP_BY_REFERENCE,
    /** A committed effect can be undone by a compensation request. */
    COMPENSATION,
    /** The effect cannot be undone (an email): irreversible steps come after every compensable one. */
    IRREVERSIBLE;

    /**
     * Parses a configured name, case-insensitively, accepting {@code -} for {@code _}.
     *
     * @throws IllegalArgumentException naming the value and the known capabilities
     */
    public static Capability parse(String name) {
        String normalised = name == null ? "" : name.trim().replace('-', '_').toUpperCase(java.util.Locale.ROOT);
        for (Capability c : values()) {
            if (c.name().equals(normalised)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown capability '" + name + "', expected one of "
                + java.util.Arrays.toString(values()));
    }
}
