package dev.toolonce.agent.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every (from, to) pair of a step and of a task: listed ones pass, all others throw. */
class StepAndTaskTransitionsTest {
    private static final Set<String> STEP = Set.of(
            "PENDING>DRY_RUN", "PENDING>AWAITING_APPROVAL", "PENDING>RUNNING", "PENDING>SKIPPED",
            "DRY_RUN>PENDING", "DRY_RUN>FAILED", "DRY_RUN>NEEDS_REVIEW",
            "AWAITING_APPROVAL>DRY_RUN", "AWAITING_APPROVAL>RUNNING", "AWAITING_APPROVAL>SKIPPED",
            "RUNNING>COMMITTED", "RUNNING>FAILED", "RUNNING>NEEDS_REVIEW",
            "COMMITTED>COMPENSATING",
            "NEEDS_REVIEW>COMMITTED", "NEEDS_REVIEW>FAILED", "NEEDS_REVIEW>PENDING",
            "COMPENSATING>COMPENSATED", "COMPENSATING>COMPENSATION_REVIEW",
            "COMPENSATION_REVIEW>COMPENSATED");

    private static final Set<String> TASK = Set.of(
            "RUNNING>RUNNING", "RUNNING>AWAITING_APPROVAL", "RUNNING>COMPENSATING", "RUNNING>NEEDS_REVIEW",
            "RUNNING>SUCCEEDED", "RUNNING>FAILED",
            "AWAITING_APPROVAL>AWAITING_APPROVAL", "AWAITING_APPROVAL>RUNNING",
            "COMPENSATING>COMPENSATING", "COMPENSATING>NEEDS_REVIEW", "COMPENSATING>COMPENSATED",
            "COMPENSATING>FAILED",
            "NEEDS_REVIEW>NEEDS_REVIEW", "NEEDS_REVIEW>RUNNING", "NEEDS_REVIEW>AWAITING_APPROVAL",
            "NEEDS_REVIEW>COMPENSATING", "NEEDS_REVIEW>SUCCEEDED", "NEEDS_REVIEW>COMPENSATED", "NEEDS_REVIEW>FAILED");

    @ParameterizedTest
    @EnumSource(StepState.class)
    void everyStepPairFromThisStateIsDecidedByTheTable(StepState from) {
        for (StepState to : StepState.values()) {
            if (STEP.contains(from + ">" + to)) {
                assertThat(StepTransitions.check(from, to)).isEqualTo(to);
            } else {
                assertThatThrownBy(() -> StepTransitions.check(from, to))
                        .isInstanceOf(IllegalTaskTransitionException.class)
                        .hasMessageContaining("step transition " + from + " -> " + to);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(TaskState.class)
    void everyTaskPairFromThisStateIsDecidedByTheTable(TaskState from) {
        for (TaskState to : TaskState.values()) {
            if (TASK.contains(from + ">" + to)) {
                assertThat(TaskTransitions.check(from, to)).isEqualTo(to);
            } else {
                assertThatThrownBy(() -> TaskTransitions.check(from, to))
                        .isInstanceOf(IllegalTaskTransitionException.class)
                        .hasMessageContaining("task transition " + from + " -> " + to);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(StepState.class)
    void onlyPendingIsAStateAStepIsCreatedIn(StepState state) {
        assertThat(StepTransitions.isInitial(state)).isEqualTo(state == StepState.PENDING);
    }

    @ParameterizedTest
    @EnumSource(TaskState.class)
    void onlyRunningIsAStateATaskIsCreatedIn(TaskState state) {
        assertThat(TaskTransitions.isInitial(state)).isEqualTo(state == TaskState.RUNNING);
    }

    @ParameterizedTest
    @EnumSource(value = TaskState.class, names = {"SUCCEEDED", "COMPENSATED", "FAILED"})
    void aFinalTaskNeverChangesAgain(TaskState state) {
        assertThat(state.isFinal()).isTrue();
        for (TaskState to : TaskState.values()) {
            assertThat(TaskTransitions.isLegal(state, to)).as(state + " -> " + to).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(value = StepState.class, names = {"FAILED", "COMPENSATED", "SKIPPED"})
    void aStepThatEndedNeverMovesAgain(StepState state) {
        for (StepState to : StepState.values()) {
            assertThat(StepTransitions.isLegal(state, to)).as(state + " -> " + to).isFalse();
        }
    }
}
