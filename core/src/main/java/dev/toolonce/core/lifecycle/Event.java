package dev.toolonce.core.lifecycle;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.outcome.LookupOutcome;
import dev.toolonce.core.outcome.ToolOutcome;
import java.time.Duration;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Something that happened to a call, as {@link CallLifecycle#decide} takes it. Each event carries what the lifecycle
 * needs beyond the call as stored: facts of the tool's configuration, the database's clock and the retry budget as
 * functions (asked only when the rule needs them), and a jitter source, so that the lifecycle itself does no I/O.
 */
public sealed interface Event {

    /**
     * What the executor knows about the tool when an attempt or a lookup ends.
     *
     * @param idempotencyWindow the provider's window (native idempotency), else null
     * @param totalTimeout      the longest one attempt of the tool takes; never null
     * @param settleDelay       the tool's wait before a lookup; never null
     * @param retrySafe         whether a resend cannot duplicate the effect (native idempotency or a unique
     *                          reference, docs/adapters.md §3)
     * @param reserve           turns a backoff into the wait actually scheduled (the tool's retry budget may push it
     *                          later); called only when the call is to be retried
     * @param jitter            uniform source in [0, 1) for the backoff
     */
    record Tool(Duration idempotencyWindow, Duration totalTimeout, Duration settleDelay, boolean retrySafe,
                UnaryOperator<Duration> reserve, DoubleSupplier jitter) {
        public Tool {
            Objects.requireNonNull(totalTimeout, "totalTimeout");
            Objects.requireNonNull(settleDelay, "settleDelay");
            Objects.requireNonNull(reserve, "reserve");
            Objects.requireNonNull(jitter, "jitter");
        }
    }

    /**
     * An attempt under the current claim ended (docs/protocol.md §9, §12).
     *
     * @param sinceFirstAttempt reads the time since the call's first attempt (database time); asked only when the
     *                          provider's idempotency window matters
     */
    record AttemptEnded(ToolOutcome outcome, Tool tool, Supplier<Duration> sinceFirstAttempt) implements Event {
    }

    /** The tool answered a lookup of a call being reconciled (docs/protocol.md §10). */
    record LookupAnswered(LookupOutcome answer, Tool tool) implements Event {
    }

    /**
     * An attempt whose guard was lost (fenced out by the sweep or an operator) reported the effect applied: evidence
     * (docs/protocol.md §11).
     *
     * @param fence the fence the attempt ran under
     */
    record LateApplied(ToolOutcome.Applied applied, long fence) implements Event {
        /** How the history records this evidence. */
        public String evidence() {
            return "late Applied " + applied.externalObjectId() + " from fenced-out attempt at fence " + fence;
        }
    }

    /** What an operator decides about a call in review (docs/protocol.md §16). */
    enum Action {
        COMMIT, RETRY, FAIL, COMPENSATE;

        /**
         * An action as operators write it ({@code commit}, {@code retry}, {@code fail}, {@code compensate}; any case).
         *
         * @throws IllegalArgumentException naming the four, for anything else
         */
        public static Action of(String name) {
            for (Action a : values()) {
                if (a.name().equalsIgnoreCase(String.valueOf(name))) {
                    return a;
                }
            }
            throw new IllegalArgumentException("action must be one of commit, retry, fail, compensate (was " + name
                    + ")");
        }
    }

    /**
     * An operator resolves a call in review.
     *
     * @param externalId the effect the operator found (commit) or names to undo (compensate); nullable
     * @param operator   the authenticated principal
     * @param note       nullable
     */
    record OperatorResolved(Action action, String externalId, String operator, String note) implements Event {
    }

    /** A compensation of this call waits to be released (docs/protocol.md §17): may the original be undone now? */
    record CompensationRequested() implements Event {
    }

    /**
     * The compensation of this call (which is {@code COMPENSATING}) has an outcome.
     *
     * @param compensationState the compensation call's state: {@code COMMITTED} or {@code FAILED_FINAL}
     */
    record CompensationEnded(CallState compensationState) implements Event {
    }
}
