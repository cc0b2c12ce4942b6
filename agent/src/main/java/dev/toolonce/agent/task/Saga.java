package dev.toolonce.agent.task;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a task does next, decided from its checkpoint alone — no I/O (docs/agent-tasks.md). Steps run one after the
 * other; a step that asks for a dry run has it run first, for its current arguments, and then waits for its approval
 * if it needs one. A step in review stops the task until an operator's decision arrives. After a final failure, the steps
 * not sent are skipped and the committed compensable steps are compensated one at a time, the latest first; the
 * task is {@code COMPENSATED} only when every committed step was undone, {@code FAILED} when a committed step could
 * not be (it was not compensable) or nothing had taken effect, and never either while a compensation is in review.
 */
public final class Saga {

    private Saga() {
    }

    /**
     * @param state      the task's next state
     * @param publish    the step whose intent to publish now, or null
     * @param compensate the step whose compensation to publish now, or null
     * @param dryRun     the step whose dry run to publish now, or null
     * @param moves      step moves without a message (approval waits, skips), by step id
     */
    public record Next(TaskState state, Step publish, Step compensate, Step dryRun, Map<String, StepState> moves) {
    }

    /** @param steps the task's steps in plan order */
    public static Next decide(List<Step> steps) {
        Map<String, StepState> moves = new LinkedHashMap<>();
        if (any(steps, StepState.COMPENSATION_REVIEW) || any(steps, StepState.NEEDS_REVIEW)) {
            return new Next(TaskState.NEEDS_REVIEW, null, null, null, moves);
        }
        boolean compensating = any(steps, StepState.FAILED) || any(steps, StepState.COMPENSATING)
                || any(steps, StepState.COMPENSATED);
        return compensating ? backward(steps, moves) : forward(steps, moves);
    }

    private static Next forward(List<Step> steps, Map<String, StepState> moves) {
        if (any(steps, StepState.RUNNING) || any(steps, StepState.DRY_RUN)) {
            return new Next(TaskState.RUNNING, null, null, null, moves);
        }
        for (Step s : steps) {
            if (s.state() == StepState.PENDING || s.state() == StepState.AWAITING_APPROVAL) {
                if (!s.dryRunPassed()) {
                    return new Next(TaskState.RUNNING, null, null, s, moves);
                }
                if (!s.approved()) {
                    if (s.state() != StepState.AWAITING_APPROVAL) {
                        moves.put(s.stepId(), StepState.AWAITING_APPROVAL);
                    }
                    return new Next(TaskState.AWAITING_APPROVAL, null, null, null, moves);
                }
                return new Next(TaskState.RUNNING, s, null, null, moves);
            }
        }
        return new Next(TaskState.SUCCEEDED, null, null, null, moves);
    }

    private static Next backward(List<Step> steps, Map<String, StepState> moves) {
        for (Step s : steps) {
            if (s.state() == StepState.PENDING || s.state() == StepState.AWAITING_APPROVAL) {
                moves.put(s.stepId(), StepState.SKIPPED);
            }
        }
        if (any(steps, StepState.RUNNING) || any(steps, StepState.DRY_RUN) || any(steps, StepState.COMPENSATING)) {
            return new Next(TaskState.COMPENSATING, null, null, null, moves);
        }
        for (int i = steps.size() - 1; i >= 0; i--) {
            Step s = steps.get(i);
            if (s.state() == StepState.COMMITTED && s.compensable()) {
                return new Next(TaskState.COMPENSATING, null, s, null, moves);
            }
        }
        boolean undone = any(steps, StepState.COMPENSATED) && !any(steps, StepState.COMMITTED);
        return new Next(undone ? TaskState.COMPENSATED : TaskState.FAILED, null, null, null, moves);
    }

    private static boolean any(List<Step> steps, StepState state) {
        return steps.stream().anyMatch(s -> s.state() == state);
    }
}
