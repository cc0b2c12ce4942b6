package dev.toolonce.schemas;

import tools.jackson.databind.JsonNode;

/**
 * A tool intent as defined by {@code schemas/tool-intent.v1.json}: an agent's request to call a
 * side-effecting tool once.
 *
 * @param messageId      the message id carried in the body; may be null (then {@code ce_id} or the
 *                       record position stands in)
 * @param tenantId       never null, {@code [A-Za-z0-9._-]{1,64}}
 * @param tool           never null, {@code [A-Za-z0-9._-]{1,64}}
 * @param operation      never null, {@code [A-Za-z0-9._-]{1,64}}
 * @param idempotencyKey never null, 1–255 printable ASCII characters
 * @param arguments      never null, a JSON object
 * @param taskId         the agent task this step belongs to; may be null
 * @param stepId         the step within the task; may be null
 * @param requestedAt    ISO-8601 instant at which the agent asked; may be null
 */
public record ToolIntent(
        String messageId,
        String tenantId,
        String tool,
        String operation,
        String idempotencyKey,
        JsonNode arguments,
        String taskId,
        String stepId,
        String requestedAt) {

    /** The Kafka record key of the contract: {@code tenant/tool/operation/idempotencyKey}. */
    public String recordKey() {
        return tenantId + "/" + tool + "/" + operation + "/" + idempotencyKey;
    }

    /** A copy carrying the given message id in its body. */
    public ToolIntent withMessageId(String id) {
        return new ToolIntent(id, tenantId, tool, operation, idempotencyKey, arguments, taskId, stepId, requestedAt);
    }
}
