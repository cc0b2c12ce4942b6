package dev.toolonce.agent.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
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
    @Test
    void everyStepMoveTheSagaAsksForIsInTheTable() {
        // Every checkpoint of two steps (each state; compensable or not; no approval, one due or one given; no dry run,
        // one due or one passed): what Saga.decide would have the engine do to a step is a move the table allows, so
        // the engine never throws on it.
        List<Step> variants = new ArrayList<>();
        for (StepState state : StepState.values()) {
            for (boolean compensable : new boolean[] {true, false}) {
                for (int approval = 0; approval < 3; approval++) {
                    for (int dryRun = 0; dryRun < 3; dryRun++) {
                        variants.add(variant("s", 0, state, compensable, approval, dryRun));
                    }
                }
            }
        }
        int decided = 0;
        for (Step a : variants) {
            for (Step b : variants) {
                List<Step> steps = List.of(at(a, "1", 1), at(b, "2", 2));
                Saga.Next next = Saga.decide(steps);
                for (Map.Entry<String, StepState> m : next.moves().entrySet()) {
                    StepState from = steps.stream().filter(s -> s.stepId().equals(m.getKey())).findFirst()
                            .orElseThrow().state();
                    assertThat(StepTransitions.isLegal(from, m.getValue())).as(steps + ": " + m).isTrue();
                }
                legal(next.publish(), StepState.RUNNING, steps);
                legal(next.compensate(), StepState.COMPENSATING, steps);
                legal(next.dryRun(), StepState.DRY_RUN, steps);
                decided++;
            }
        }
        assertThat(decided).isEqualTo(198 * 198);
    }

    private static void legal(Step step, StepState to, List<Step> steps) {
        if (step != null) {
            assertThat(StepTransitions.isLegal(step.state(), to)).as(steps + ": " + step.stepId() + " -> " + to).isTrue();
        }
    }

    /** @param approval 0 none needed, 1 due, 2 given; @param dryRun 0 none asked, 1 due, 2 passed */
    private static Step variant(String id, int position, StepState state, boolean compensable, int approval,
                                int dryRun) {
        String key = "acme:t:" + id + ":1";
        return SagaTest.step(id, position, state, compensable, approval > 0, approval == 2 ? key : null, dryRun > 0,
                dryRun == 2 ? key : null);
    }

    private static Step at(Step s, String id, int position) {
        return variant(id, position, s.state(), s.compensable(), !s.needsApproval() ? 0 : s.approved() ? 2 : 1,
                !s.dryRun() ? 0 : s.dryRunPassed() ? 2 : 1);
    }
}
