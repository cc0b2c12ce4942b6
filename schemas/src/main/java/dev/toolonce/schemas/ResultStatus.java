package dev.toolonce.schemas;

/** The statuses a result event may carry (public contract v1). */
public enum ResultStatus {
    /** The effect happened once; {@code externalObjectId} names it. */
    COMMITTED,
    /** The tool refused, or retries ran out with the effect confirmed absent. */
    FAILED_FINAL,
    /** Refused before any contact with the tool; {@code error.code} says why. */
    REJECTED,
    /** Automatic execution stopped; a human decides. */
    NEEDS_REVIEW,
    /** The effect was undone by its compensation. */
    COMPENSATED
}
