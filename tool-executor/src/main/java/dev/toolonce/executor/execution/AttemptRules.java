package dev.toolonce.executor.execution;

import dev.toolonce.core.outcome.ToolOutcome;
import dev.toolonce.core.retry.RetryPolicy;
import dev.toolonce.executor.ledger.Finish;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * What one attempt's outcome does to the ledger (docs/protocol.md §9, §10 and §12), without I/O: the caller supplies
 * what it knows about the call and the tool. The rules that keep evidence honest:
 * <ul>
 *   <li>{@code Applied} commits; {@code Rejected} fails for good (or goes to review for a reused key);
 *       {@code Indeterminate} goes to UNKNOWN and is reconciled after the tool's settle delay.</li>
 *   <li>A {@code Retryable} is retried with backoff. If this or an earlier failure since the last confirmed
 *       absence may have applied (a 5xx under native idempotency; the ledger carries the error code
 *       {@value #EFFECT_POSSIBLE} while that is so), the call never fails without evidence: when the
 *       attempts are used up, or when the retry would reach the provider after its idempotency window (time
 *       since the first attempt + the next delay + one attempt's total timeout > window), it goes to UNKNOWN
 *       and is reconciled first — the lookup then finds the effect, confirms its absence, or sends it to a
 *       human.</li>
 *   <li>Attempts used up on failures that were all confirmed not applied (429, connection refused):
 *       FAILED_FINAL {@code RETRIES_EXHAUSTED}.</li>
 * </ul>
 */
public final class AttemptRules {
    /** Error code kept on a FAILED_RETRYABLE call while an earlier attempt's effect may exist. */
    public static final String EFFECT_POSSIBLE = "EFFECT_POSSIBLE";

    /**
     * What is known about the call and its tool when its attempt ends.
     *
     * @param attempts             attempts made, this one included
     * @param effectPossibleBefore the call's error code was {@value #EFFECT_POSSIBLE} when it was claimed
     * @param idempotencyWindow    the provider's window (native idempotency), else null
     * @param totalTimeout         the longest one attempt of the tool takes
     * @param settleDelay          the tool's wait before a lookup
     * @param sinceFirstAttempt    reads the time since the call's first attempt (database time); asked only
     *                             when the window matters
     * @param reserve              turns the backoff into the wait actually scheduled (the tool's retry budget
     *                             may push it later); called only when the call is to be retried
     */
    public record Context(int attempts, boolean effectPossibleBefore, Duration idempotencyWindow,
                          Duration totalTimeout, Duration settleDelay, Supplier<Duration> sinceFirstAttempt,
                          UnaryOperator<Duration> reserve) {
    }

    private final RetryPolicy retry;

    /** @param retry backoff and attempts */
    public AttemptRules(RetryPolicy retry) {
        this.retry = retry;
    }

    /**
     * The ledger change for {@code outcome}.
     *
     * @param backoff the jittered delay before the next attempt ({@link RetryPolicy#delay}), for a Retryable
     */
    public Finish finish(ToolOutcome outcome, Context c, Duration backoff) {
        if (outcome instanceof ToolOutcome.Applied a) {
            return Finish.committed(a.externalObjectId(), a.resultJson());
        }
        if (outcome instanceof ToolOutcome.Rejected r) {
            return r.needsReview() ? Finish.review("REJECTED", r.code(), r.message())
                    : Finish.failedFinal("REJECTED", r.code(), r.message());
        }
        if (outcome instanceof ToolOutcome.Indeterminate i) {
            return unknown(i.reason(), c);
        }
        return retryable((ToolOutcome.Retryable) outcome, c, backoff);
    }

    private Finish retryable(ToolOutcome.Retryable r, Context c, Duration backoff) {
        boolean effectPossible = r.effectPossible() || c.effectPossibleBefore();
        if (!retry.allowsAnother(c.attempts())) {
            return effectPossible
                    ? unknown("attempts used up, but an attempt may have applied (" + r.reason()
                            + "): reconciling before failing", c)
                    : Finish.failedFinal("RETRYABLE", "RETRIES_EXHAUSTED",
                            "gave up after " + c.attempts() + " attempts; last: " + r.reason());
        }
        Duration wait = c.reserve().apply(backoff);
        if (effectPossible && c.idempotencyWindow() != null) {
            Duration reach = c.sinceFirstAttempt().get().plus(wait).plus(c.totalTimeout());
            if (reach.compareTo(c.idempotencyWindow()) > 0) {
                return unknown("a resend after " + wait + " could reach the tool " + reach
                        + " after the first attempt, outside its idempotency window " + c.idempotencyWindow()
                        + " (" + r.reason() + "): reconciling instead", c);
            }
        }
        return Finish.retryIn(wait, "RETRYABLE", effectPossible ? EFFECT_POSSIBLE : null, r.reason());
    }

    private static Finish unknown(String reason, Context c) {
        return Finish.unknown(c.settleDelay(), "INDETERMINATE", null, reason);
    }
}
