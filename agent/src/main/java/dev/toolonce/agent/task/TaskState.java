package dev.toolonce.agent.task;

/** Where a task is (docs/agent-tasks.md). {@link #isFinal()} states never change again. */
public enum TaskState {
    RUNNING,
    AWAITING_APPROVAL,
    /** A step failed finally; completed steps are being compensated in reverse order. */
    COMPENSATING,
    /** A step or a compensation is in review; nothing runs until an operator's decision arrives. */
    NEEDS_REVIEW,
    SUCCEEDED,
    /** Every completed compensable step was undone, and nothing else had taken effect. */
    COMPENSATED,
    /**
     * A step failed finally, and either nothing had taken effect (nothing to compensate) or a committed step could
     * not be undone (it was not compensable).
     */
    FAILED;

    public boolean isFinal() {
        return this == SUCCEEDED || this == COMPENSATED || this == FAILED;
    }
}
