package dev.toolonce.core.outcome;

import java.time.Duration;

/**
 * What one attempt at a tool produced (docs/protocol.md §9). Adapters return one of these instead of
 * throwing; only the adapter knows whether a failure came before or after the request was sent.
 */
public sealed interface ToolOutcome {

    /** The effect happened; {@code externalObjectId} may be null when the tool names nothing. */
    record Applied(String externalObjectId, String resultJson) implements ToolOutcome {
    }

    /** The tool refused; nothing happened. {@code pauseTool} for 401/403, {@code needsReview} for key reuse. */
    record Rejected(String code, String message, boolean pauseTool, boolean needsReview) implements ToolOutcome {
        public Rejected(String code, String message) {
            this(code, message, false, false);
        }
    }

    /**
     * May be sent again after {@code retryAfter} (nullable). Either confirmed not applied (429, connection
     * refused before sending: {@link #notApplied}), or — for a tool with native idempotency — a failure after
     * which the effect may exist but a resend under the same provider key cannot duplicate it while the
     * provider still remembers the key ({@link #effectPossible}: a 5xx). The latter never ends a call as
     * FAILED_FINAL by itself: the executor reconciles it first.
     */
    record Retryable(String reason, Duration retryAfter, boolean effectPossible) implements ToolOutcome {
        /** Confirmed not applied. */
        public Retryable(String reason, Duration retryAfter) {
            this(reason, retryAfter, false);
        }

        /** Confirmed not applied: nothing happened at the tool. */
        public static Retryable notApplied(String reason, Duration retryAfter) {
            return new Retryable(reason, retryAfter, false);
        }

        /** Safe to resend within the provider's idempotency window, but the effect may already exist. */
        public static Retryable effectPossible(String reason, Duration retryAfter) {
            return new Retryable(reason, retryAfter, true);
        }
    }

    /** Cannot tell whether the effect happened (timeout after sending, reset, 5xx, 409 in progress...). */
    record Indeterminate(String reason) implements ToolOutcome {
    }
}
