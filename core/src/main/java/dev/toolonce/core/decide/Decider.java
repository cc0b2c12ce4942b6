package dev.toolonce.core.decide;

import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.hash.RequestHash;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The protocol's decision for an incoming intent (docs/protocol.md §3, §13 and §15). Pure: no I/O, no clock;
 * time comes in as {@code now}.
 */
public final class Decider {
    public static final String PARAMETER_MISMATCH = "IDEMPOTENCY_PARAMETER_MISMATCH";
    public static final String KEY_EXPIRED = "IDEMPOTENCY_KEY_EXPIRED";

    private final Duration acceptanceWindow;

    /** @param acceptanceWindow intents requested longer ago than this are refused (retention minus margin) */
    public Decider(Duration acceptanceWindow) {
        this.acceptanceWindow = acceptanceWindow;
    }

    /**
     * The part of the decision that needs no ledger row: an intent older than the acceptance window is
     * refused whatever the ledger holds.
     *
     * @param requestedAt when the agent asked; null when unknown (then never expired)
     * @return the refusal, or empty when the intent may go on
     */
    public Optional<Decision.Reject> admit(Instant requestedAt, Instant now) {
        if (requestedAt != null && requestedAt.isBefore(now.minus(acceptanceWindow))) {
            return Optional.of(new Decision.Reject(KEY_EXPIRED, "intent requested at " + requestedAt
                    + " is older than the acceptance window of " + acceptanceWindow));
        }
        return Optional.empty();
    }

    /**
     * @param existing    the ledger's call for the intent's scope, if any
     * @param hash        the intent's request hash
     * @param requestedAt when the agent asked; null when unknown (then never expired)
     */
    public Decision decide(Optional<ToolCall> existing, RequestHash hash, Instant requestedAt, Instant now) {
        Optional<Decision.Reject> refused = admit(requestedAt, now);
        if (refused.isPresent()) {
            return refused.get();
        }
        if (existing.isEmpty()) {
            return new Decision.Plan();
        }
        ToolCall call = existing.get();
        if (!call.requestHash().equals(hash)) {
            return new Decision.Reject(PARAMETER_MISMATCH, "scope " + call.scope()
                    + " was first used with request hash " + call.requestHash() + ", this intent hashes to " + hash);
        }
        return switch (call.state()) {
            case PLANNED, STARTED, UNKNOWN, RECONCILING, COMPENSATING -> new Decision.AwaitCompletion(call);
            case COMMITTED, FAILED_FINAL, COMPENSATED -> new Decision.Replay(call);
            case FAILED_RETRYABLE -> new Decision.RetryWhenDue(call);
            case NEEDS_REVIEW -> new Decision.HoldForReview(call);
        };
    }
}
