package dev.toolonce.agent.results;

import dev.toolonce.core.call.Compensation;
import dev.toolonce.core.call.DryRun;

/**
 * Which of a step's calls an intent or a result is: the step's own call, its dry run (docs/agent-tasks.md §7a) or its
 * compensation (§6). Each is a call of its own at the executor, named on the wire by the contract's suffixes — operation
 * {@code <op>.dry-run} / {@code <op>.compensate} and step id {@code <step>.dry-run} / {@code <step>.compensate}
 * (docs/contract.md, docs/protocol.md §17). This enum is the one place those names are made and read: the agent
 * stores the part in {@code agent_step.part} and routes by it, never by a name.
 */
public enum StepPart {
    /** The step's own call: the plan's operation and step id. */
    ACTION(""),
    /** The dry run of the step's current arguments: no effect, never compensated. */
    DRY_RUN(DryRun.SUFFIX),
    /** The undoing of the step's committed effect, asked with empty arguments under the step's own key. */
    COMPENSATION(Compensation.SUFFIX);

    private final String suffix;

    StepPart(String suffix) {
        this.suffix = suffix;
    }

    /**
     * The part an intent or result of this operation is, as the contract names it: an operation ending in
     * {@code .compensate} is a compensation, one ending in {@code .dry-run} a dry run, any other a step's own call.
     */
    public static StepPart of(String operation) {
        if (Compensation.isCompensation(operation)) {
            return COMPENSATION;
        }
        return DryRun.isDryRun(operation) ? DRY_RUN : ACTION;
    }

    /** The operation on the wire of this part of a step whose operation is {@code stepOperation}. */
    public String operation(String stepOperation) {
        return stepOperation + suffix;
    }

    /** The step id on the wire (and in {@code agent_step}) of this part of the task's step {@code taskStepId}. */
    public String stepId(String taskStepId) {
        return taskStepId + suffix;
    }

    /**
     * The task's step that a step id on the wire of this part names: without the part's suffix when it carries one
     * (the agent always sends it), else as it is.
     */
    public String taskStepId(String wireStepId) {
        return !suffix.isEmpty() && wireStepId.endsWith(suffix)
                ? wireStepId.substring(0, wireStepId.length() - suffix.length()) : wireStepId;
    }

    /** Whether a plan's step id would be taken for another part's on the wire (it ends in a part's suffix). */
    public static boolean reserved(String planStepId) {
        for (StepPart p : values()) {
            if (!p.suffix.isEmpty() && planStepId.endsWith(p.suffix)) {
                return true;
            }
        }
        return false;
    }
}
