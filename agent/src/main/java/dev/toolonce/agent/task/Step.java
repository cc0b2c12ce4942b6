package dev.toolonce.agent.task;

import dev.toolonce.agent.results.StepPart;

/**
 * A step as the engine reads it, through the view {@code agent_task_step_outcome}: its plan and saga state from
 * {@code agent_task_step}, and its calls' outcomes (versions, external ids) from their {@code agent_step} rows of its
 * current key (docs/agent-tasks.md §3a).
 *
 * @param tenantId         the tenant of its task: a task is known by tenant and id
 * @param key              the step's idempotency key for its current argument version ({@link StepKeys})
 * @param approvedKey      the key an operator approved; approval is for exact arguments, so a new key needs a new one
 * @param callVersion      newest {@code callVersion} applied from the step's call; -1 before any
 * @param compensationVersion newest {@code callVersion} applied from its compensation's call; -1 before any
 * @param dryRun           the plan asked for a dry run before this step
 * @param dryRunPassedKey  the step key whose arguments passed the dry run; a new key needs a new dry run
 * @param dryRunVersion    newest {@code callVersion} applied from the dry run of the current key; -1 before any
 */
public record Step(String tenantId, String taskId, String stepId, int position, String tool, String operation, String argumentsJson,
                   int argVersion, String key, boolean compensable, boolean irreversible, boolean needsApproval,
                   String approvedKey, String approvedBy, StepState state, long callVersion, long compensationVersion,
                   String externalObjectId, String compensationExternalId, String errorCode, String errorMessage,
                   int publishes, java.time.Instant startedAt, java.time.Instant finishedAt,
                   java.time.Instant compensationStartedAt, java.time.Instant compensatedAt, boolean dryRun,
                   String dryRunPassedKey, long dryRunVersion) {

    /** Whether an operator approved the current arguments, or the step needs no approval. */
    public boolean approved() {
        return !needsApproval || key.equals(approvedKey);
    }

    /** Whether its dry run passed for the current arguments, or the step needs none. */
    public boolean dryRunPassed() {
        return !dryRun || key.equals(dryRunPassedKey);
    }

    /** The step id of its dry run's intent (and {@code agent_step} row): {@link StepPart#DRY_RUN}'s. */
    public String dryRunStepId() {
        return StepPart.DRY_RUN.stepId(stepId);
    }

    /** The step id of its compensation's intent (and {@code agent_step} row): {@link StepPart#COMPENSATION}'s. */
    public String compensationStepId() {
        return StepPart.COMPENSATION.stepId(stepId);
    }
}
