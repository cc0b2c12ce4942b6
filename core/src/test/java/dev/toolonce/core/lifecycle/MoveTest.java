package dev.toolonce.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.call.CallState;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The kinds of {@link Move}: which fields go with which state (docs/protocol.md §9, §15). */
class MoveTest {
    private static final Duration WAIT = Duration.ofSeconds(3);
    private static final List<Move> EVERY_KIND = List.of(
            new Move.Commit("ch_1", "{}"),
            new Move.Retry(WAIT, "RETRYABLE", true, "slow down"),
            new Move.Reconcile(WAIT, "INDETERMINATE", false, "timeout after sending"),
            new Move.Review("UNKNOWN_OUTCOME", "OUTCOME_UNKNOWN", "cannot tell"),
            new Move.FailFinal("REJECTED", "TOOL_REJECTED", "no"),
            new Move.Compensate(null, "OPERATOR", "undo it"),
            new Move.Compensated());
    /** States the agent is answered in (docs/protocol.md §15). */
    private static final Set<CallState> ANSWERED = EnumSet.of(CallState.COMMITTED, CallState.FAILED_FINAL,
            CallState.NEEDS_REVIEW, CallState.COMPENSATED);

    @Test
    void aMoveIsANewOutcomeExactlyWhenItsStateIsAnsweredToTheAgent() {
        for (Move f : EVERY_KIND) {
            assertThat(f.newOutcome()).as(f.to().name()).isEqualTo(ANSWERED.contains(f.to()));
        }
    }

    @Test
    void onlyTheWaitingStatesCarryAWaitAndOnlyCommittedCarriesAResult() {
        for (Move f : EVERY_KIND) {
            boolean waits = f.to() == CallState.FAILED_RETRYABLE || f.to() == CallState.UNKNOWN;
            assertThat(f.dueIn()).as(f.to().name()).isEqualTo(waits ? WAIT : null);
            assertThat(f.resultJson() != null).as(f.to().name()).isEqualTo(f.to() == CallState.COMMITTED);
        }
    }

    @Test
    void committedCarriesTheToolsIdAndNoError() {
        Move f = new Move.Commit("ch_1", "{\"id\":\"ch_1\"}");
        assertThat(f.externalObjectId()).isEqualTo("ch_1");
        assertThat(f.errorClass()).isNull();
        assertThat(f.errorCode()).isNull();
        assertThat(f.errorMessage()).isNull();
    }

    @Test
    void theFactsOfAWaitingCallAreItsOwnFieldsAndTheLedgersCodesFollowFromThem() {
        Move possible = new Move.Retry(WAIT, "RETRYABLE", true, "503");
        assertThat(possible.effectPossible()).isTrue();
        assertThat(possible.errorCode()).isEqualTo(CallLifecycle.EFFECT_POSSIBLE);
        assertThat(new Move.Retry(WAIT, "RETRYABLE", false, "429").errorCode()).isNull();
        Move failedLookup = new Move.Reconcile(WAIT, "UNKNOWN_OUTCOME", true, "timeout");
        assertThat(failedLookup.lookupFailed()).isTrue();
        assertThat(failedLookup.errorCode()).isEqualTo(CallLifecycle.LOOKUP_UNAVAILABLE);
        for (Move f : EVERY_KIND) {
            assertThat(f.lookupFailed()).as(f.toString()).isEqualTo(f instanceof Move.Reconcile r && r.lookupFailed());
            assertThat(f.effectPossible()).as(f.toString()).isEqualTo(f instanceof Move.Retry r && r.effectPossible());
        }
    }
}
