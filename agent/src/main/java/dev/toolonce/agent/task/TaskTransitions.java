package dev.toolonce.agent.task;

import static dev.toolonce.agent.task.TaskState.*;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one table of legal moves of a task (docs/agent-tasks.md §4, §6). Any pair not listed here throws. An open task
 * may stay where it is — a step changed, the task's version grows and its event is published — while a final one
 * never changes again. {@link TaskStore} checks every change it writes against it.
 */
public final class TaskTransitions {
    private static final Map<TaskState, Set<TaskState>> LEGAL = new EnumMap<>(TaskState.class);

    static {
        // Forward: the next step, an approval to wait for, the end; or a final failure, with or without anything
        // to compensate; or a step (or its dry run) in review.
        allow(RUNNING, RUNNING, AWAITING_APPROVAL, COMPENSATING, NEEDS_REVIEW, SUCCEEDED, FAILED);
        // Nothing is out while a task waits for an approval: only the approval (or new arguments) moves it.
        allow(AWAITING_APPROVAL, AWAITING_APPROVAL, RUNNING);
        // The next compensation, the end, or a compensation in review.
        allow(COMPENSATING, COMPENSATING, NEEDS_REVIEW, COMPENSATED, FAILED);
        // The operator's decision arrives as a result and the task goes on from wherever it leads.
        allow(NEEDS_REVIEW, NEEDS_REVIEW, RUNNING, AWAITING_APPROVAL, COMPENSATING, SUCCEEDED, COMPENSATED, FAILED);
        allow(SUCCEEDED);
        allow(COMPENSATED);
        allow(FAILED);
    }

    private TaskTransitions() {
    }

    /** Whether a task may come into existence in {@code state}: only {@code RUNNING}, as a plan is submitted. */
    public static boolean isInitial(TaskState state) {
        return state == RUNNING;
    }

    /** Whether {@code from -> to} is legal. */
    public static boolean isLegal(TaskState from, TaskState to) {
        return LEGAL.get(from).contains(to);
    }

    /**
     * Checks a change.
     *
     * @return {@code to}, for chaining
     * @throws IllegalTaskTransitionException when the pair is not in the table
     */
    public static TaskState check(TaskState from, TaskState to) {
        if (!isLegal(from, to)) {
            throw new IllegalTaskTransitionException("task", from, to);
        }
        return to;
    }

    private static void allow(TaskState from, TaskState... to) {
        Set<TaskState> targets = EnumSet.noneOf(TaskState.class);
        targets.addAll(List.of(to));
        LEGAL.put(from, targets);
    }
}
