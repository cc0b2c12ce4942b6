package dev.toolonce.agent.call;

import java.util.Objects;

/**
 * Which application tool call a {@code local_call} row is ({@link LocalCalls}): its primary key.
 *
 * @param tenantId       the call's tenant
 * @param conversationId the conversation (or task) the model asked in
 * @param name           the method's name, as the model calls it
 * @param idempotencyKey the call's key
 */
public record LocalCallRef(String tenantId, String conversationId, String name, String idempotencyKey) {
    public LocalCallRef {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(conversationId, "conversationId");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    }

    /** The call as an outcome names it: the conversation as its task, {@code local:<name>} as its step. */
    public CallRef asCallRef() {
        return new CallRef(tenantId, conversationId, LocalCalls.TOOL + ":" + name, idempotencyKey);
    }
}
