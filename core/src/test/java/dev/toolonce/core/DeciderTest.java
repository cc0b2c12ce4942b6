package dev.toolonce.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.decide.Decider;
import dev.toolonce.core.decide.Decision;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class DeciderTest {
    private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");
    private static final CallScope SCOPE = new CallScope("acme", "payments", "charge", "k");
    private static final RequestHash HASH = new RequestHash("sha256:" + "a".repeat(64));
    private static final RequestHash OTHER = new RequestHash("sha256:" + "b".repeat(64));
    private final Decider decider = new Decider(Duration.ofDays(6));

    private static ToolCall call(CallState state) {
        return new ToolCall(1, SCOPE, ProviderKey.of(SCOPE), HASH, "{}", state, 1, 1, 1, null, null, null, null,
                null, null, "m1", null, null, ToolCall.Facts.planned(SCOPE.operation()));
    }

    @Test
    void anIntentRequestedNowOrWithoutATimeIsAdmitted() {
        // A new scope is then planned by intake's insert alone; the decider is asked only when the scope is taken.
        assertThat(decider.admit(NOW, NOW)).isEmpty();
        assertThat(decider.admit(null, NOW)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(CallState.class)
    void aDifferentHashIsRejectedInEveryStateAndNeverReplayed(CallState state) {
        Decision d = decider.onTaken(call(state), OTHER);
        assertThat(d).isInstanceOfSatisfying(Decision.Reject.class,
                r -> assertThat(r.code()).isEqualTo(Decider.PARAMETER_MISMATCH));
    }

    @ParameterizedTest
    @EnumSource(CallState.class)
    void theSameHashGetsTheDecisionOfItsState(CallState state) {
        Decision d = decider.onTaken(call(state), HASH);
        Class<?> expected = switch (state) {
            case PLANNED, STARTED, UNKNOWN, RECONCILING, COMPENSATING -> Decision.AwaitCompletion.class;
            case COMMITTED, FAILED_FINAL, COMPENSATED -> Decision.Replay.class;
            case FAILED_RETRYABLE -> Decision.RetryWhenDue.class;
            case NEEDS_REVIEW -> Decision.HoldForReview.class;
        };
        assertThat(d).isInstanceOf(expected);
    }

    @Test
    void anIntentOlderThanTheAcceptanceWindowIsRejectedAsExpired() {
        assertThat(decider.admit(NOW.minus(Duration.ofDays(7)), NOW)).hasValueSatisfying(
                r -> assertThat(r.code()).isEqualTo(Decider.KEY_EXPIRED));
        assertThat(decider.admit(NOW.minus(Duration.ofDays(5)), NOW)).isEmpty();
    }
}
