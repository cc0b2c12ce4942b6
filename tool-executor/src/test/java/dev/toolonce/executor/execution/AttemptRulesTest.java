package dev.toolonce.executor.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.Transitions;
import dev.toolonce.core.outcome.ToolOutcome;
import dev.toolonce.core.retry.RetryPolicy;
import dev.toolonce.executor.ledger.Finish;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** No FAILED_FINAL without evidence; the idempotency window is used; every result is a legal move from STARTED. */
class AttemptRulesTest {
    private static final Duration WINDOW = Duration.ofHours(24);
    private static final Duration TOTAL = Duration.ofSeconds(12);
    private static final Duration SETTLE = Duration.ofSeconds(1);
    private final AttemptRules rules = new AttemptRules(new RetryPolicy(Duration.ofMillis(200), Duration.ofSeconds(30), 5));
    private final AtomicInteger windowReads = new AtomicInteger();

    private AttemptRules.Context context(int attempts, boolean effectBefore, Duration window, Duration since) {
        return new AttemptRules.Context(attempts, effectBefore, window, TOTAL, SETTLE, () -> {
            windowReads.incrementAndGet();
            return since;
        }, d -> d.plusMillis(5));
    }

    private Finish finish(ToolOutcome o, AttemptRules.Context c) {
        Finish f = rules.finish(o, c, Duration.ofSeconds(2));
        Transitions.check(CallState.STARTED, f.to());
        return f;
    }

    @Test
    void aServerErrorUnderNativeIdempotencyIsResentWithinTheWindowAndRemembersTheEffectMayExist() {
        Finish f = finish(ToolOutcome.Retryable.effectPossible("503", null), context(1, false, WINDOW, Duration.ofMinutes(1)));
        assertThat(f.to()).isEqualTo(CallState.FAILED_RETRYABLE);
        assertThat(f.errorCode()).isEqualTo(AttemptRules.EFFECT_POSSIBLE);
        assertThat(f.retryIn()).as("the budgeted wait").isEqualTo(Duration.ofMillis(2005));
    }

    @Test
    void aResendThatWouldFallOutsideTheIdempotencyWindowIsReconciledInstead() {
        Duration since = WINDOW.minus(TOTAL).minusSeconds(1); // + 2.005 s wait + 12 s total > window
        Finish f = finish(ToolOutcome.Retryable.effectPossible("503", null), context(2, false, WINDOW, since));
        assertThat(f.to()).isEqualTo(CallState.UNKNOWN);
        assertThat(f.retryIn()).isEqualTo(SETTLE);
        assertThat(f.errorMessage()).contains("outside its idempotency window");

        Duration justInside = WINDOW.minus(TOTAL).minusSeconds(3);
        assertThat(finish(ToolOutcome.Retryable.effectPossible("503", null), context(2, false, WINDOW, justInside)).to())
                .isEqualTo(CallState.FAILED_RETRYABLE);
        // an earlier 5xx makes a later 429 just as dangerous to resend late
        assertThat(finish(ToolOutcome.Retryable.notApplied("429", null), context(2, true, WINDOW, since)).to())
                .isEqualTo(CallState.UNKNOWN);
    }

    @Test
    void theWindowIsNotReadWhenNoEffectCanExist() {
        Finish f = finish(ToolOutcome.Retryable.notApplied("429", Duration.ofSeconds(1)), context(1, false, WINDOW, WINDOW.multipliedBy(2)));
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
        Finish failed = finish(ToolOutcome.Retryable.notApplied("429", null), context(5, false, null, Duration.ZERO));
        assertThat(failed.to()).as("every attempt confirmed not applied: evidence enough").isEqualTo(CallState.FAILED_FINAL);
        assertThat(failed.errorCode()).isEqualTo("RETRIES_EXHAUSTED");
    }

    @Test
    void theOtherOutcomesKeepTheirMeaning() {
        AttemptRules.Context c = context(1, true, WINDOW, Duration.ZERO);
        assertThat(finish(new ToolOutcome.Applied("x", null), c).to()).isEqualTo(CallState.COMMITTED);
        assertThat(finish(new ToolOutcome.Applied(null, null), c).to()).as("no id: still committed").isEqualTo(CallState.COMMITTED);
        assertThat(finish(new ToolOutcome.Rejected("TOOL_REJECTED", "no"), c).to()).isEqualTo(CallState.FAILED_FINAL);
        assertThat(finish(ToolOutcome.Rejected.forReview("PROVIDER_KEY_REUSED", "no"), c).to())
                .isEqualTo(CallState.NEEDS_REVIEW);
        Finish unknown = finish(new ToolOutcome.Indeterminate("timeout"), c);
        assertThat(unknown.to()).isEqualTo(CallState.UNKNOWN);
        assertThat(unknown.retryIn()).isEqualTo(SETTLE);
    }
}
