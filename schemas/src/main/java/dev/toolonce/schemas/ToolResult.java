package dev.toolonce.schemas;

import tools.jackson.databind.JsonNode;

/**
 * A tool result as defined by {@code schemas/tool-result.v1.json}, addressed to the intent message
 * it answers ({@link #intentMessageId}).
 *
 * @param messageId        id of this result message (equals the outbox row id / {@code ce_id})
 * @param intentMessageId  the intent message this result answers
 * @param requestHash      {@code sha256:<hex>}; null only when the intent could not be hashed
 * @param taskId           copied from the answered intent; may be null
 * @param stepId           copied from the answered intent; may be null
 * @param callVersion      grows with every new outcome of the call; consumers apply only newer ones
 * @param status           one of {@link ResultStatus}
 * @param externalObjectId the object the tool created; may be null
 * @param result           the tool's answer; may be null
 * @param error            why the call did not commit; null when it did
 * @param attempts         how many times the tool was called
 * @param replayed         true when this answer is the stored result of an earlier execution
 * @param completedAt      ISO-8601 instant of the outcome
 */
public record ToolResult(
        String messageId,
        String intentMessageId,
        String tenantId,
        String tool,
        String operation,
        String idempotencyKey,
        String requestHash,
        String taskId,
        String stepId,
        long callVersion,
        ResultStatus status,
        String externalObjectId,
        JsonNode result,
        ResultError error,
        int attempts,
        boolean replayed,
        String completedAt) {

    /** The Kafka record key of the contract: {@code tenant/tool/operation/idempotencyKey}. */
    public String recordKey() {
        return tenantId + "/" + tool + "/" + operation + "/" + idempotencyKey;
    }

    /** Why a call did not commit: a stable code and a sentence naming what is wrong. */
    public record ResultError(String code, String message) {
    }
}
