package dev.toolonce.agent.task;

import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * One planned step of a task: a tool call, and what the saga may do with it.
 *
 * @param stepId        unique within the task; not ending in {@code .compensate} (that names its compensation)
 * @param tool          the tool, as configured in the executor
 * @param operation     the tool's operation
 * @param arguments     a JSON object, sent to the tool
 * @param compensable   on a later final failure, undo this step with the tool's compensation
 *                      ({@code <operation>.compensate}, docs/protocol.md §17)
 * @param irreversible  cannot be undone (an email): must come after every compensable step
 * @param needsApproval the task waits before this step until an operator approves these exact arguments
 * @param dryRun        before this step, its tool's dry run ({@code <operation>.dry-run}) checks these exact
 *                      arguments; a failed dry run fails the step before any effect. The tool must declare one
 *                      ({@link DryRunCatalog})
 */
public record StepSpec(String stepId, String tool, String operation, JsonNode arguments, boolean compensable,
                       boolean irreversible, boolean needsApproval, boolean dryRun) {

    public StepSpec {
        Objects.requireNonNull(stepId, "stepId");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(operation, "operation");
        if (arguments == null || !arguments.isObject()) {
            throw new IllegalArgumentException("step " + stepId + ": arguments must be a JSON object");
        }
    }

    /** A plain step: not compensated, not irreversible, no approval, no dry run. */
    public static StepSpec of(String stepId, String tool, String operation, JsonNode arguments) {
        return new StepSpec(stepId, tool, operation, arguments, false, false, false, false);
    }

    /** This step, undone by its compensation if a later step fails finally. */
    public StepSpec withCompensation() {
        return new StepSpec(stepId, tool, operation, arguments, true, irreversible, needsApproval, dryRun);
    }

    /** This step, flagged as impossible to undo. */
    public StepSpec asIrreversible() {
        return new StepSpec(stepId, tool, operation, arguments, compensable, true, needsApproval, dryRun);
    }

    /** This step, held until an operator approves it. */
    public StepSpec withApproval() {
        return new StepSpec(stepId, tool, operation, arguments, compensable, irreversible, true, dryRun);
    }

    /** This step, checked first by its tool's dry run; an approval, if any, comes after the dry run passed. */
    public StepSpec withDryRun() {
        return new StepSpec(stepId, tool, operation, arguments, compensable, irreversible, needsApproval, true);
    }
}
