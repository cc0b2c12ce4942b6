package dev.toolonce.agent.task;

/** Where a step of a task is (docs/agent-tasks.md). */
public enum StepState {
    /** Not sent yet; waits for the steps before it. */
    PENDING,
    /** Waits for an operator's approval of its current arguments. */
    AWAITING_APPROVAL,
    /** Its intent was published; no final answer yet. */
    RUNNING,
    /** The tool's effect exists ({@code COMMITTED}). */
    COMMITTED,
    /** It failed finally or was refused; nothing happened. */
    FAILED,
    /** The call is in review at the executor; an operator decides. */
    NEEDS_REVIEW,
    /** Its compensation was published. */
    COMPENSATING,
    /** Its effect was undone. */
    COMPENSATED,
    /** Its compensation could not finish; the effect may still stand and an operator decides. */
    COMPENSATION_REVIEW,
    /** Never sent: an earlier step failed. */
    SKIPPED
}
