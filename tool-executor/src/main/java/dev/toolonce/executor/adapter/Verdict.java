package dev.toolonce.executor.adapter;

import java.util.Locale;

/** How an HTTP status is read (docs/adapters.md §3); the names are what {@code statuses} overrides use. */
enum Verdict {
    /** The effect happened. */
    APPLIED,
    /** The tool refused; nothing happened. */
    REJECTED,
    /** Confirmed not applied; may be retried (honouring {@code Retry-After}). */
    RETRYABLE,
    /** Cannot tell: the call goes to UNKNOWN and is reconciled. */
    INDETERMINATE,
    /** The provider says the key was reused with other parameters: a human decides. */
    REVIEW,
    /** Credentials refused: the call is rejected and the tool paused until an operator resumes it. */
    PAUSE;

    /** @throws IllegalArgumentException naming the accepted values */
    static Verdict parse(String name) {
        for (Verdict v : values()) {
            if (v.name().equalsIgnoreCase(name == null ? "" : name.trim())) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown outcome '" + name + "', expected one of "
                + java.util.Arrays.stream(values()).map(v -> v.name().toLowerCase(Locale.ROOT)).toList());
    }
}
