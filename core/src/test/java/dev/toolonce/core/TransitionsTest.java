package dev.toolonce.core;

import static dev.toolonce.core.call.CallState.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.IllegalTransitionException;
import dev.toolonce.core.call.Transitions;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every (from, to) pair: listed ones pass, all others throw. */
class TransitionsTest {
    private static final Set<String> LEGAL = Set.of(
            "PLANNED>STARTED",
            "STARTED>COMMITTED", "STARTED>FAILED_RETRYABLE", "STARTED>FAILED_FINAL", "STARTED>UNKNOWN",
            "STARTED>NEEDS_REVIEW",
            "FAILED_RETRYABLE>STARTED", "FAILED_RETRYABLE>FAILED_FINAL", "FAILED_RETRYABLE>COMMITTED",
            "UNKNOWN>RECONCILING", "UNKNOWN>COMMITTED",
            "RECONCILING>COMMITTED", "RECONCILING>FAILED_RETRYABLE", "RECONCILING>NEEDS_REVIEW", "RECONCILING>UNKNOWN",
            "COMMITTED>COMPENSATING", "COMMITTED>NEEDS_REVIEW",
            "COMPENSATING>COMPENSATED", "COMPENSATING>NEEDS_REVIEW",
            "NEEDS_REVIEW>COMMITTED", "NEEDS_REVIEW>FAILED_RETRYABLE", "NEEDS_REVIEW>FAILED_FINAL",
            "NEEDS_REVIEW>COMPENSATING",
            "FAILED_FINAL>NEEDS_REVIEW");

    @ParameterizedTest
    @EnumSource(CallState.class)
    void everyPairFromThisStateIsDecidedByTheTable(CallState from) {
        for (CallState to : CallState.values()) {
            if (LEGAL.contains(from + ">" + to)) {
                assertThat(Transitions.check(from, to)).isEqualTo(to);
            } else {
                assertThatThrownBy(() -> Transitions.check(from, to))
                        .isInstanceOf(IllegalTransitionException.class)
                        .hasMessageContaining(from + " -> " + to);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(CallState.class)
    void onlyPlannedIsAStateACallIsCreatedIn(CallState state) {
        assertThat(Transitions.isInitial(state)).isEqualTo(state == PLANNED);
    }

    @ParameterizedTest
    @EnumSource(value = CallState.class, names = {"FAILED_FINAL", "COMPENSATED"})
    void finalStatesLeadToNoAutomaticExecution(CallState state) {
        for (CallState to : CallState.values()) {
            // FAILED_FINAL may only raise the duplicate alarm (a late Applied): review, never execution.
            assertThat(Transitions.isLegal(state, to)).isEqualTo(state == FAILED_FINAL && to == NEEDS_REVIEW);
        }
    }
}
