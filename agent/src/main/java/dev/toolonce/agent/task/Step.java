package dev.toolonce.agent.task;

/**
 * A step as checkpointed in {@code agent_task_step}.
 *
 * @param key              the step's idempotency key for its current argument version ({@link StepKeys})
 * @param approvedKey      the key an operator approved; approval is for exact arguments, so a new key needs a new one
 * @param callVersion      newest {@code callVersion} applied from the step's call; -1 before any
 * @param compensationVersion newest {@code callVersion} applied from its compensation's call; -1 before any
 */
public record Step(String taskId, String stepId, int position, String tool, String operation, String argumentsJson,
                   int argVersion, String key, boolean compensable, boolean irreversible, boolean needsApproval,
                   String approvedKey, String approvedBy, StepState state, long callVersion, long compensationVersion,
                   String externalObjectId, String compensationExternalId, String errorCode, String errorMessage,
                   int publishes, java.time.Instant startedAt, java.time.Instant finishedAt,
                   java.time.Instant compensationStartedAt, java.time.Instant compensatedAt) {

    /** Whether an operator approved the current arguments, or the step needs no approval. */
    public boolean approved() {
        return !needsApproval || key.equals(approvedKey);
    }

    /** The step id of its compensation's intent (and {@code agent_step} row). */
    public String compensationStepId() {
        return stepId + dev.toolonce.core.call.Compensation.SUFFIX;
    }
}
