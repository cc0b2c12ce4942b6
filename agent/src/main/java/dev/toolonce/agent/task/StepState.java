package dev.toolonce.agent.task;

/** Where a step of a task is (docs/agent-tasks.md). */
public enum StepState {
    /** Not sent yet; waits for the steps before it (or its dry run passed and it waits for its turn to be sent). */
    PENDING,
    /** Its dry run was published; no answer yet. Nothing of the step itself was sent. */
    DRY_RUN,
    /** Waits for an operator's approval of its current arguments. */
    AWAITING_APPROVAL,
    /** Its intent was published; no final answer yet. */
    RUNNING,
    /** The tool's effect exists ({@code COMMITTED}). */
    COMMITTED,
    /** It failed finally or was refused, or its dry run did; nothing happened. */
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
