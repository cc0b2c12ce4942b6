package dev.toolonce.executor.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.call.CallState;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The named moves of {@link Finish}: which fields go with which state (docs/protocol.md §9, §15). */
class FinishTest {
    private static final Duration WAIT = Duration.ofSeconds(3);
    private static final List<Finish> EVERY_KIND = List.of(
            Finish.committed("ch_1", "{}"),
            Finish.retryIn(WAIT, "RETRYABLE", "HTTP_429", "slow down"),
            Finish.unknown(WAIT, "INDETERMINATE", null, "timeout after sending"),
            Finish.review("UNKNOWN_OUTCOME", "OUTCOME_UNKNOWN", "cannot tell"),
            Finish.failedFinal("REJECTED", "TOOL_REJECTED", "no"),
            Finish.compensating(null, "OPERATOR", "undo it"),
            Finish.compensated());
    /** States the agent is answered in (docs/protocol.md §15). */
    private static final Set<CallState> ANSWERED = EnumSet.of(CallState.COMMITTED, CallState.FAILED_FINAL,
            CallState.NEEDS_REVIEW, CallState.COMPENSATED);

    @Test
    void aMoveIsANewOutcomeExactlyWhenItsStateIsAnsweredToTheAgent() {
        for (Finish f : EVERY_KIND) {
            assertThat(f.newOutcome()).as(f.to().name()).isEqualTo(ANSWERED.contains(f.to()));
        }
    }

    @Test
    void onlyTheWaitingStatesCarryAWaitAndOnlyCommittedCarriesAResult() {
        for (Finish f : EVERY_KIND) {
            boolean waits = f.to() == CallState.FAILED_RETRYABLE || f.to() == CallState.UNKNOWN;
            assertThat(f.retryIn()).as(f.to().name()).isEqualTo(waits ? WAIT : null);
            assertThat(f.resultJson() != null).as(f.to().name()).isEqualTo(f.to() == CallState.COMMITTED);
        }
    }

    @Test
    void committedCarriesTheToolsIdAndNoError() {
        Finish f = Finish.committed("ch_1", "{\"id\":\"ch_1\"}");
        assertThat(f.externalObjectId()).isEqualTo("ch_1");
        assertThat(f.errorClass()).isNull();
        assertThat(f.errorCode()).isNull();
        assertThat(f.errorMessage()).isNull();
    }
}
