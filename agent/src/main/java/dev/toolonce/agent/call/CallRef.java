package dev.toolonce.agent.call;

import dev.toolonce.schemas.ToolIntent;
import java.util.Objects;

/**
 * Which call an awaitable call waits for: the primary key of its {@code agent_step} row, the one record of its
 * outcome on the agent's side. The key alone names the call at the executor; the task (or conversation) and step it
 * was asked for under name the row.
 *
 * @param tenantId       the call's tenant
 * @param taskId         the task's or the conversation's id
 * @param stepId         the step within it ({@link ToolCalls#CALL_STEP} for a call of a free-form loop)
 * @param idempotencyKey the call's key
 */
public record CallRef(String tenantId, String taskId, String stepId, String idempotencyKey) {
    public CallRef {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(stepId, "stepId");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    }

    /** The row an intent's step is written to; the intent must name its task and step. */
    public static CallRef of(ToolIntent intent) {
        if (intent.taskId() == null || intent.stepId() == null) {
            throw new IllegalArgumentException("an awaitable call names its task (or conversation) and its step: "
                    + "taskId and stepId must not be null");
        }
        return new CallRef(intent.tenantId(), intent.taskId(), intent.stepId(), intent.idempotencyKey());
    }
}
