package dev.toolonce.agent.task;

import static dev.toolonce.agent.task.StepState.*;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one table of legal moves of a task's step (docs/agent-tasks.md §4-§7a). Any pair not listed here throws.
 * {@link TaskStore} checks every move it writes against it, and {@code TaskSqlTransitionsTest} every SQL statement
 * that writes a step's state.
 */
public final class StepTransitions {
    private static final Map<StepState, Set<StepState>> LEGAL = new EnumMap<>(StepState.class);

    static {
        // Its turn: its dry run first, then its approval, then it is sent; or skipped after an earlier failure.
        allow(PENDING, DRY_RUN, AWAITING_APPROVAL, RUNNING, SKIPPED);
        // Passed (back to PENDING for its approval or its turn), failed or refused, or in review at the executor.
        allow(DRY_RUN, PENDING, FAILED, NEEDS_REVIEW);
        // Approved; or its arguments changed, so the new ones get a dry run first; or skipped.
        allow(AWAITING_APPROVAL, DRY_RUN, RUNNING, SKIPPED);
        allow(RUNNING, COMMITTED, FAILED, NEEDS_REVIEW);
        // A later step failed finally and this one is compensable.
        allow(COMMITTED, COMPENSATING);
        // The operator's decision on the call, or on the dry run (passed: PENDING; failed: FAILED).
        allow(NEEDS_REVIEW, COMMITTED, FAILED, PENDING);
        allow(COMPENSATING, COMPENSATED, COMPENSATION_REVIEW);
        // The operator's decision: the compensation committed.
        allow(COMPENSATION_REVIEW, COMPENSATED);
        allow(FAILED);
        allow(COMPENSATED);
        allow(SKIPPED);
    }

    private StepTransitions() {
    }

    /** Whether a step may come into existence in {@code state}: only {@code PENDING}, as a plan is checkpointed. */
    public static boolean isInitial(StepState state) {
        return state == PENDING;
    }

    /** Whether {@code from -> to} is legal. */
    public static boolean isLegal(StepState from, StepState to) {
        return LEGAL.get(from).contains(to);
    }

    /**
     * Checks a move.
     *
     * @return {@code to}, for chaining
     * @throws IllegalTaskTransitionException when the pair is not in the table
     */
    public static StepState check(StepState from, StepState to) {
        if (!isLegal(from, to)) {
            throw new IllegalTaskTransitionException("step", from, to);
        }
        return to;
    }

    private static void allow(StepState from, StepState... to) {
        Set<StepState> targets = EnumSet.noneOf(StepState.class);
        targets.addAll(List.of(to));
        LEGAL.put(from, targets);
    }
}
