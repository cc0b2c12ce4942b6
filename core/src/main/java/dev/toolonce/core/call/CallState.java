package dev.toolonce.core.call;

/** The ledger states of a tool call (docs/protocol.md §4). Legal moves live in {@link Transitions}. */
public enum CallState {
    PLANNED, STARTED, COMMITTED, FAILED_RETRYABLE, FAILED_FINAL, UNKNOWN, RECONCILING,
    COMPENSATING, COMPENSATED, NEEDS_REVIEW;

    /** True for states after which no automatic execution happens and a stored result can be replayed. */
    public boolean isTerminal() {
        return this == COMMITTED || this == FAILED_FINAL || this == COMPENSATED;
    }
}
