package dev.toolonce.agent.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SagaTest {

    static Step step(String id, int pos, StepState state, boolean compensable, boolean needsApproval, String approved) {
        return step(id, pos, state, compensable, needsApproval, approved, false, null);
    }

    static Step step(String id, int pos, StepState state, boolean compensable, boolean needsApproval, String approved,
                     boolean dryRun, String dryRunPassed) {
        String key = "acme:t:" + id + ":1";
        return new Step("acme", "t", id, pos, "tool", "op", "{}", 1, key, compensable, false, needsApproval, approved, null,
                state, -1, -1, null, null, null, null, 0, null, null, null, null, dryRun, dryRunPassed, -1);
    }

    static Step step(String id, int pos, StepState state, boolean compensable) {
        return step(id, pos, state, compensable, false, null);
    }

    @Test
    void stepsRunOneAfterTheOther() {
        Saga.Next n = Saga.decide(List.of(step("1", 1, StepState.COMMITTED, true), step("2", 2, StepState.PENDING, true)));
        assertThat(n.state()).isEqualTo(TaskState.RUNNING);
        assertThat(n.publish().stepId()).isEqualTo("2");
        assertThat(Saga.decide(List.of(step("1", 1, StepState.RUNNING, true), step("2", 2, StepState.PENDING, true)))
                .publish()).isNull();
        assertThat(Saga.decide(List.of(step("1", 1, StepState.COMMITTED, true))).state()).isEqualTo(TaskState.SUCCEEDED);
    }

    @Test
    void anUnapprovedStepHoldsTheTaskAndAnApprovalOfTheCurrentKeyReleasesIt() {
        Saga.Next held = Saga.decide(List.of(step("1", 1, StepState.COMMITTED, false),
                step("2", 2, StepState.PENDING, false, true, null)));
        assertThat(held.state()).isEqualTo(TaskState.AWAITING_APPROVAL);
        assertThat(held.moves()).containsEntry("2", StepState.AWAITING_APPROVAL);
        assertThat(Saga.decide(List.of(step("2", 1, StepState.AWAITING_APPROVAL, false, true, "acme:t:2:0")))
                .state()).as("approval of older arguments").isEqualTo(TaskState.AWAITING_APPROVAL);
        assertThat(Saga.decide(List.of(step("2", 1, StepState.AWAITING_APPROVAL, false, true, "acme:t:2:1")))
                .publish().stepId()).isEqualTo("2");
    }

    @Test
    void aDryRunComesFirstThenTheApprovalThenTheStepAndANewKeyNeedsANewDryRun() {
        Saga.Next dry = Saga.decide(List.of(step("1", 1, StepState.COMMITTED, true),
                step("2", 2, StepState.PENDING, true, true, null, true, null)));
        assertThat(dry.state()).isEqualTo(TaskState.RUNNING);
        assertThat(dry.dryRun().stepId()).isEqualTo("2");
        assertThat(dry.publish()).isNull();
        assertThat(Saga.decide(List.of(step("2", 1, StepState.DRY_RUN, true, true, null, true, null))).dryRun())
                .as("one dry run out at a time").isNull();
        Saga.Next approval = Saga.decide(List.of(step("2", 1, StepState.PENDING, true, true, null, true, "acme:t:2:1")));
        assertThat(approval.state()).isEqualTo(TaskState.AWAITING_APPROVAL);
        assertThat(approval.dryRun()).isNull();
        assertThat(Saga.decide(List.of(step("2", 1, StepState.AWAITING_APPROVAL, true, true, "acme:t:2:1", true,
                "acme:t:2:1"))).publish().stepId()).isEqualTo("2");
        assertThat(Saga.decide(List.of(step("2", 1, StepState.AWAITING_APPROVAL, true, true, null, true,
                "acme:t:2:0"))).dryRun().stepId()).as("a dry run of older arguments").isEqualTo("2");
    }

    @Test
    void aFailedDryRunFailsTheTaskWithNothingToCompensateOrCompensatesTheStepsBefore() {
        assertThat(Saga.decide(List.of(step("1", 1, StepState.FAILED, true, false, null, true, null),
                step("2", 2, StepState.PENDING, false))).state()).isEqualTo(TaskState.FAILED);
        Saga.Next undo = Saga.decide(List.of(step("1", 1, StepState.COMMITTED, true),
                step("2", 2, StepState.FAILED, true, false, null, true, null), step("3", 3, StepState.PENDING, false)));
        assertThat(undo.compensate().stepId()).isEqualTo("1");
        assertThat(undo.moves()).containsEntry("3", StepState.SKIPPED);
    }

    @Test
    void aFinalFailureCompensatesTheLatestCommittedStepFirstAndSkipsTheRest() {
        List<Step> steps = List.of(step("1", 1, StepState.COMMITTED, true), step("2", 2, StepState.COMMITTED, true),
                step("3", 3, StepState.FAILED, true), step("4", 4, StepState.PENDING, false));
        Saga.Next n = Saga.decide(steps);
        assertThat(n.state()).isEqualTo(TaskState.COMPENSATING);
        assertThat(n.compensate().stepId()).isEqualTo("2");
        assertThat(n.moves()).containsEntry("4", StepState.SKIPPED);

        Saga.Next waiting = Saga.decide(List.of(step("1", 1, StepState.COMMITTED, true),
                step("2", 2, StepState.COMPENSATING, true), step("3", 3, StepState.FAILED, true)));
        assertThat(waiting.compensate()).as("one compensation at a time").isNull();
        assertThat(Saga.decide(List.of(step("1", 1, StepState.COMMITTED, true),
                step("2", 2, StepState.COMPENSATED, true), step("3", 3, StepState.FAILED, true))).compensate().stepId())
                .isEqualTo("1");
        assertThat(Saga.decide(List.of(step("1", 1, StepState.COMPENSATED, true),
                step("2", 2, StepState.COMPENSATED, true), step("3", 3, StepState.FAILED, true))).state())
                .isEqualTo(TaskState.COMPENSATED);
    }

    @Test
    void aCompensationInReviewIsNeverReportedCompensatedAndACommittedStepThatCannotBeUndoneIsFailed() {
        assertThat(Saga.decide(List.of(step("1", 1, StepState.COMPENSATION_REVIEW, true),
                step("2", 2, StepState.COMPENSATED, true), step("3", 3, StepState.FAILED, true))).state())
                .isEqualTo(TaskState.NEEDS_REVIEW);
        assertThat(Saga.decide(List.of(step("1", 1, StepState.COMMITTED, false), step("2", 2, StepState.FAILED, true)))
                .state()).isEqualTo(TaskState.FAILED);
        assertThat(Saga.decide(List.of(step("1", 1, StepState.NEEDS_REVIEW, true), step("2", 2, StepState.PENDING, true)))
                .state()).isEqualTo(TaskState.NEEDS_REVIEW);
    }
}
