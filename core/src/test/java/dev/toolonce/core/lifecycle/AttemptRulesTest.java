package dev.toolonce.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.Transitions;
import dev.toolonce.core.outcome.ToolOutcome;
import dev.toolonce.core.retry.RetryPolicy;
import dev.toolonce.core.call.CallKind;
import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The attempt rules of {@link CallLifecycle}: no FAILED_FINAL without evidence; the idempotency window is used; every
 * result is a legal move from STARTED.
 */
class AttemptRulesTest {
    private static final CallScope SCOPE = new CallScope("acme", "payments", "charge", "k");
    private static final Duration WINDOW = Duration.ofHours(24);
    private static final Duration TOTAL = Duration.ofSeconds(12);
    private static final Duration SETTLE = Duration.ofSeconds(1);
    private final CallLifecycle lifecycle = new CallLifecycle(new RetryPolicy(Duration.ofMillis(200), Duration.ofSeconds(30), 5));
    private final AtomicInteger windowReads = new AtomicInteger();

    /** A STARTED call after {@code attempts} attempts, an earlier one of which may have applied if {@code effectBefore}. */
    private record Context(ToolCall call, Duration window, Duration since) {
    }

    private Context context(int attempts, boolean effectBefore, Duration window, Duration since) {
        ToolCall call = new ToolCall(1, SCOPE, ProviderKey.of(SCOPE), new RequestHash("sha256:" + "a".repeat(64)), "{}",
                CallState.STARTED, 1, 0, attempts, null, null, effectBefore ? CallLifecycle.EFFECT_POSSIBLE : null,
                null, null, null, "m1", null, null, new ToolCall.Facts(CallKind.ACTION, effectBefore, 0, false));
        return new Context(call, window, since);
    }

    private Move finish(ToolOutcome o, Context c) {
        // Jitter pinned at one half: attempt n waits 100 ms * 2^(n-1), plus 5 ms the budget adds.
        Event.Tool tool = new Event.Tool(c.window(), TOTAL, SETTLE, true, d -> d.plusMillis(5), () -> 0.5);
        Verdict v = lifecycle.decide(c.call(), new Event.AttemptEnded(o, tool, () -> {
            windowReads.incrementAndGet();
            return c.since();
        }));
        Move f = v.only();
        Transitions.check(CallState.STARTED, f.to());
        return f;
    }

    @Test
    void aServerErrorUnderNativeIdempotencyIsResentWithinTheWindowAndRemembersTheEffectMayExist() {
        Move f = finish(ToolOutcome.Retryable.effectPossible("503", null), context(1, false, WINDOW, Duration.ofMinutes(1)));
        assertThat(f.to()).isEqualTo(CallState.FAILED_RETRYABLE);
        assertThat(f.errorCode()).isEqualTo(CallLifecycle.EFFECT_POSSIBLE);
        assertThat(f.dueIn()).as("the budgeted wait").isEqualTo(Duration.ofMillis(105));
    }

    @Test
    void aResendThatWouldFallOutsideTheIdempotencyWindowIsReconciledInstead() {
        Duration since = WINDOW.minus(TOTAL).minusMillis(100); // + 0.205 s wait + 12 s total > window
        Move f = finish(ToolOutcome.Retryable.effectPossible("503", null), context(2, false, WINDOW, since));
        assertThat(f.to()).isEqualTo(CallState.UNKNOWN);
        assertThat(f.dueIn()).isEqualTo(SETTLE);
        assertThat(f.errorMessage()).contains("outside its idempotency window");

        Duration justInside = WINDOW.minus(TOTAL).minusMillis(300);
        assertThat(finish(ToolOutcome.Retryable.effectPossible("503", null), context(2, false, WINDOW, justInside)).to())
                .isEqualTo(CallState.FAILED_RETRYABLE);
        // an earlier 5xx makes a later 429 just as dangerous to resend late
        assertThat(finish(ToolOutcome.Retryable.notApplied("429", null), context(2, true, WINDOW, since)).to())
                .isEqualTo(CallState.UNKNOWN);
    }

    @Test
    void theWindowIsNotReadWhenNoEffectCanExist() {
        Move f = finish(ToolOutcome.Retryable.notApplied("429", Duration.ofSeconds(1)), context(1, false, WINDOW, WINDOW.multipliedBy(2)));
        assertThat(f.to()).isEqualTo(CallState.FAILED_RETRYABLE);
        assertThat(f.errorCode()).isNull();
        assertThat(windowReads).hasValue(0);
    }

    @Test
    void attemptsUsedUpAfterAFailureThatMayHaveAppliedAreReconciledNotFailed() {
        assertThat(finish(ToolOutcome.Retryable.effectPossible("500", null), context(5, false, WINDOW, Duration.ZERO)).to())
                .isEqualTo(CallState.UNKNOWN);
        assertThat(finish(ToolOutcome.Retryable.notApplied("429", null), context(5, true, WINDOW, Duration.ZERO)).to())
                .isEqualTo(CallState.UNKNOWN);
        Move failed = finish(ToolOutcome.Retryable.notApplied("429", null), context(5, false, null, Duration.ZERO));
        assertThat(failed.to()).as("every attempt confirmed not applied: evidence enough").isEqualTo(CallState.FAILED_FINAL);
        assertThat(failed.errorCode()).isEqualTo("RETRIES_EXHAUSTED");
    }

    @Test
    void theOtherOutcomesKeepTheirMeaning() {
        Context c = context(1, true, WINDOW, Duration.ZERO);
        assertThat(finish(new ToolOutcome.Applied("x", null), c).to()).isEqualTo(CallState.COMMITTED);
        assertThat(finish(new ToolOutcome.Applied(null, null), c).to()).as("no id: still committed").isEqualTo(CallState.COMMITTED);
        assertThat(finish(new ToolOutcome.Rejected("TOOL_REJECTED", "no"), c).to()).isEqualTo(CallState.FAILED_FINAL);
        assertThat(finish(ToolOutcome.Rejected.forReview("PROVIDER_KEY_REUSED", "no"), c).to())
                .isEqualTo(CallState.NEEDS_REVIEW);
        Move unknown = finish(new ToolOutcome.Indeterminate("timeout"), c);
        assertThat(unknown.to()).isEqualTo(CallState.UNKNOWN);
        assertThat(unknown.dueIn()).isEqualTo(SETTLE);
    }
}
