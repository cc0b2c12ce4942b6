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

    /**
     * Whose calls of a tool wait after the tool refused the executor's credentials (401/403, docs/adapters.md §6).
     */
    enum Pause {
        /** Not a refusal of the credentials: nobody's calls wait. */
        NONE,
        /** The call's tenant's own credential was refused: that tenant's calls of the tool wait. */
        TENANT,
        /** The credential every tenant shares was refused: every tenant's calls of the tool wait. */
        EVERY_TENANT
    }

    /**
     * The tool refused; nothing happened. {@code pause} says whose calls of the tool wait (401/403), {@code
     * needsReview} marks key reuse. Built by {@link #Rejected(String, String)}, {@link #credentialsRefused} or
     * {@link #forReview}.
     *
     * @param pause never null; {@link Pause#NONE} unless the credentials were refused
     */
    record Rejected(String code, String message, Pause pause, boolean needsReview) implements ToolOutcome {
        public Rejected {
            java.util.Objects.requireNonNull(pause, "pause");
        }

        /** A plain refusal: the call fails, nothing else happens. */
        public Rejected(String code, String message) {
            this(code, message, Pause.NONE, false);
        }

        /** The tool refused the credentials: the call fails and the tool is paused for {@code pause}'s tenants. */
        public static Rejected credentialsRefused(String code, String message, Pause pause) {
            if (pause == Pause.NONE) {
                throw new IllegalArgumentException("a refusal of the credentials pauses the tool for someone");
            }
            return new Rejected(code, message, pause, false);
        }

        /** The tool refused in a way a human must look at (a provider key reused with other parameters). */
        public static Rejected forReview(String code, String message) {
            return new Rejected(code, message, Pause.NONE, true);
        }

        /** @return whether the tool is paused for anyone after this refusal */
        public boolean pauseTool() {
            return pause != Pause.NONE;
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
