package dev.toolonce.executor.ledger;

import dev.toolonce.core.call.CallState;
import java.time.Duration;
import java.util.Objects;

/**
 * A move of a call as the ledger records it ({@link ToolCallStore#finish}): the target state, what is written with
 * it, and whether it is a new outcome (the call version grows and the agent is answered). Only the factories build
 * one, one per kind of move, so that which fields go with which state is decided here and nowhere else
 * (docs/protocol.md §9, §10, §16). Immutable.
 */
public final class Finish {
    private final CallState to;
    private final String externalObjectId;
    private final String resultJson;
    private final String errorClass;
    private final String errorCode;
    private final String errorMessage;
    private final Duration retryIn;
    private final boolean newOutcome;

    private Finish(CallState to, String externalObjectId, String resultJson, String errorClass, String errorCode,
                   String errorMessage, Duration retryIn, boolean newOutcome) {
        this.to = Objects.requireNonNull(to);
        this.externalObjectId = externalObjectId;
        this.resultJson = resultJson;
        this.errorClass = errorClass;
        this.errorCode = errorCode;
        this.errorMessage = errorMessage;
        this.retryIn = retryIn;
        this.newOutcome = newOutcome;
    }

    /** The effect exists: {@code COMMITTED}, a new outcome. Both arguments nullable. */
    public static Finish committed(String externalObjectId, String resultJson) {
        return new Finish(CallState.COMMITTED, externalObjectId, resultJson, null, null, null, null, true);
    }

    /** Not applied, or safely resendable: {@code FAILED_RETRYABLE}, due after {@code wait}; no answer yet. */
    public static Finish retryIn(Duration wait, String errorClass, String errorCode, String message) {
        return new Finish(CallState.FAILED_RETRYABLE, null, null, errorClass, errorCode, message, wait, false);
    }

    /** Nobody knows whether the effect exists: {@code UNKNOWN}, reconciled after {@code wait}; no answer yet. */
    public static Finish unknown(Duration wait, String errorClass, String errorCode, String message) {
        return new Finish(CallState.UNKNOWN, null, null, errorClass, errorCode, message, wait, false);
    }

    /** Automatic execution stops: {@code NEEDS_REVIEW}, a new outcome reported to the agent. */
    public static Finish review(String errorClass, String errorCode, String message) {
        return new Finish(CallState.NEEDS_REVIEW, null, null, errorClass, errorCode, message, null, true);
    }

    /** The call ends without an effect: {@code FAILED_FINAL}, a new outcome. */
    public static Finish failedFinal(String errorClass, String errorCode, String message) {
        return new Finish(CallState.FAILED_FINAL, null, null, errorClass, errorCode, message, null, true);
    }

    /** A committed call's compensation starts: {@code COMPENSATING}; the agent hears when it ends. */
    public static Finish compensating(String externalObjectId, String errorClass, String message) {
        return new Finish(CallState.COMPENSATING, externalObjectId, null, errorClass, null, message, null, false);
    }

    /** The effect was undone: {@code COMPENSATED}, a new outcome. */
    public static Finish compensated() {
        return new Finish(CallState.COMPENSATED, null, null, null, null, null, null, true);
    }

    /** The state the call moves to; never null. */
    public CallState to() {
        return to;
    }

    /** The tool's id of the effect; nullable (null keeps the one recorded). */
    public String externalObjectId() {
        return externalObjectId;
    }

    /** The tool's answer as JSON; nullable (null keeps the one recorded). */
    public String resultJson() {
        return resultJson;
    }

    /** What kind of failure or decision this is (e.g. {@code RETRYABLE}, {@code OPERATOR}); nullable. */
    public String errorClass() {
        return errorClass;
    }

    /** The contract's error code; nullable. */
    public String errorCode() {
        return errorCode;
    }

    /** Nullable. */
    public String errorMessage() {
        return errorMessage;
    }

    /** When the call is due again ({@code next_attempt_at}); null for now. */
    public Duration retryIn() {
        return retryIn;
    }

    /** Whether this is a new outcome: the call version grows and the agent is answered. */
    public boolean newOutcome() {
        return newOutcome;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Finish f && to == f.to && newOutcome == f.newOutcome
                && Objects.equals(externalObjectId, f.externalObjectId) && Objects.equals(resultJson, f.resultJson)
                && Objects.equals(errorClass, f.errorClass) && Objects.equals(errorCode, f.errorCode)
                && Objects.equals(errorMessage, f.errorMessage) && Objects.equals(retryIn, f.retryIn);
    }

    @Override
    public int hashCode() {
        return Objects.hash(to, externalObjectId, resultJson, errorClass, errorCode, errorMessage, retryIn, newOutcome);
    }

    @Override
    public String toString() {
        return "Finish[" + to + (errorCode == null ? "" : " " + errorCode) + (retryIn == null ? "" : " in " + retryIn)
                + (newOutcome ? ", new outcome" : "") + "]";
    }
}
