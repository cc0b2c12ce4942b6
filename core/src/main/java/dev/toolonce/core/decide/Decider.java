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
     * What to do with an intent whose scope already has a call (intake inserts first, docs/protocol.md §5, so a new
     * scope never gets here: the insert alone plans it). Asked after {@link #admit}.
     *
     * @param existing the ledger's call for the intent's scope, read under a share lock
     * @param hash     the intent's request hash
     */
    public Decision onTaken(ToolCall existing, RequestHash hash) {
        if (!existing.requestHash().equals(hash)) {
            return new Decision.Reject(PARAMETER_MISMATCH, "scope " + existing.scope()
                    + " was first used with request hash " + existing.requestHash() + ", this intent hashes to " + hash);
        }
        return switch (existing.state()) {
            case PLANNED, STARTED, UNKNOWN, RECONCILING, COMPENSATING -> new Decision.AwaitCompletion(existing);
            case COMMITTED, FAILED_FINAL, COMPENSATED -> new Decision.Replay(existing);
            case FAILED_RETRYABLE -> new Decision.RetryWhenDue(existing);
            case NEEDS_REVIEW -> new Decision.HoldForReview(existing);
        };
    }
}
