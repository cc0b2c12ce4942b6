package dev.toolonce.agent.task;

import dev.toolonce.agent.results.StepPart;
import java.util.regex.Pattern;

/**
 * The idempotency key of a step, derived and never chosen: {@code tenant:task:step:version}. The same step with the
 * same arguments always gets the same key — across restarts, resumes and re-publications — and a new key only
 * comes with a new argument version, which only {@link TaskEngine#changeArguments} can make, before the step was
 * sent and with a new approval.
 */
public final class StepKeys {
    private static final Pattern KEY = Pattern.compile("[\\x20-\\x7E]{1,255}");

    private StepKeys() {
    }

    /**
     * @throws PlanRefusedException when the key would exceed 255 characters
     */
    public static String key(String tenantId, String taskId, String stepId, int version) {
        String key = tenantId + ":" + taskId + ":" + stepId + ":" + version;
        if (!KEY.matcher(key).matches()) {
            throw new PlanRefusedException("step '" + stepId + "': its key " + key + " is not 1-255 printable characters");
        }
        return key;
    }

    /**
     * The key of a step's dry run: the key of the step id {@code <step>.dry-run} at the same argument version, so
     * a new argument version gets a new dry run too.
     *
     * @throws PlanRefusedException when the key would exceed 255 characters
     */
    public static String dryRunKey(String tenantId, String taskId, String stepId, int version) {
        return key(tenantId, taskId, StepPart.DRY_RUN.stepId(stepId), version);
    }
}
