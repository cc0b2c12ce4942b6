package dev.toolonce.core.lifecycle;

import dev.toolonce.core.call.CallState;
import java.time.Duration;

/**
 * One guarded write of a call out of its current state, as {@link CallLifecycle} decides it and a store carries it
 * out (docs/protocol.md §9, §10, §16, §17). One record per kind of write, so which columns go with which state is
 * decided by the type and nowhere else. The claims, the lease sweep and the reconciliation claim are set-based
 * statements of the store, declared against {@link dev.toolonce.core.call.Transitions} where they are written; every
 * other move of a call is one of these.
 */
public sealed interface Move {

    /** The state the call moves to; never null. */
    CallState to();

    /** Whether this is a new outcome: the call version grows and the agent is answered. */
    boolean newOutcome();

    /** The tool's id of the effect; null keeps the one recorded. */
    default String externalObjectId() {
        return null;
    }

    /** The tool's answer as JSON; null keeps the one recorded. */
    default String resultJson() {
        return null;
    }

    /** What kind of failure or decision this is (e.g. {@code RETRYABLE}, {@code OPERATOR}); nullable. */
    default String errorClass() {
        return null;
    }

    /** The contract's error code; nullable. */
    default String errorCode() {
        return null;
    }

    /** Nullable. */
    default String errorMessage() {
        return null;
    }

    /** When the call is due again ({@code next_attempt_at}); null for now. */
    default Duration dueIn() {
        return null;
    }

    /** Whether an attempt's effect may exist although the call is not committed ({@link Retry#effectPossible}). */
    default boolean effectPossible() {
        return false;
    }

    /** Whether this move records a lookup that failed in a way that may pass ({@link Reconcile#lookupFailed}). */
    default boolean lookupFailed() {
        return false;
    }

    /** The effect exists: {@code COMMITTED}, a new outcome. Both fields nullable. */
    record Commit(String externalObjectId, String resultJson) implements Move {
        public CallState to() {
            return CallState.COMMITTED;
        }

        public boolean newOutcome() {
            return true;
        }
    }

    /**
     * Not applied, or safely resendable: {@code FAILED_RETRYABLE}, due after {@code dueIn}; no answer yet.
     *
     * @param effectPossible an attempt since the last confirmed absence may have applied: the call must not fail
     *                       without evidence ({@link CallLifecycle})
     */
    record Retry(Duration dueIn, String errorClass, boolean effectPossible, String errorMessage) implements Move {
        public CallState to() {
            return CallState.FAILED_RETRYABLE;
        }

        public boolean newOutcome() {
            return false;
        }

        /** The ledger keeps {@value CallLifecycle#EFFECT_POSSIBLE} as the call's error code while it is so. */
        public String errorCode() {
            return effectPossible ? CallLifecycle.EFFECT_POSSIBLE : null;
        }
    }

    /**
     * Nobody knows whether the effect exists: {@code UNKNOWN}, looked up after {@code dueIn}; no answer yet.
     *
     * @param lookupFailed this follows a lookup that failed in a way that may pass (counted to bound the lookups)
     */
    record Reconcile(Duration dueIn, String errorClass, boolean lookupFailed, String errorMessage) implements Move {
        public CallState to() {
            return CallState.UNKNOWN;
        }

        public boolean newOutcome() {
            return false;
        }

        public String errorCode() {
            return lookupFailed ? CallLifecycle.LOOKUP_UNAVAILABLE : null;
        }
    }

    /** Automatic execution stops: {@code NEEDS_REVIEW}, a new outcome reported to the agent. */
    record Review(String errorClass, String errorCode, String errorMessage) implements Move {
        public CallState to() {
            return CallState.NEEDS_REVIEW;
        }

        public boolean newOutcome() {
            return true;
        }
    }

    /** The call ends without an effect: {@code FAILED_FINAL}, a new outcome. */
    record FailFinal(String errorClass, String errorCode, String errorMessage) implements Move {
        public CallState to() {
            return CallState.FAILED_FINAL;
        }

        public boolean newOutcome() {
            return true;
        }
    }

    /**
     * A committed call's compensation starts: {@code COMPENSATING}; the agent hears when it ends.
     *
     * @param externalObjectId the effect to undo when an operator names it; null keeps the one recorded
     */
    record Compensate(String externalObjectId, String errorClass, String errorMessage) implements Move {
        public CallState to() {
            return CallState.COMPENSATING;
        }

        public boolean newOutcome() {
            return false;
        }
    }

    /** The effect was undone: {@code COMPENSATED}, a new outcome. */
    record Compensated() implements Move {
        public CallState to() {
            return CallState.COMPENSATED;
        }

        public boolean newOutcome() {
            return true;
        }
    }
}
