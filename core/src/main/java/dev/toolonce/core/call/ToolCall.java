package dev.toolonce.core.call;

import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import java.time.Instant;

/**
 * One row of the ledger as the protocol sees it, as read from the database. Immutable. Its state changes only
 * through the stores' guarded statements, each declared against {@link Transitions} (docs/protocol.md §4).
 *
 * @param id               ledger id
 * @param scope            never null
 * @param providerKey      never null
 * @param requestHash      never null
 * @param argumentsJson    the arguments as received (JSON text), sent to the tool
 * @param state            never null
 * @param fence            incremented by every claim; guards every write of the claimant
 * @param callVersion      incremented by every new outcome; carried in result events
 * @param attempts         how many times the tool was called
 * @param externalObjectId what the tool created; nullable
 * @param resultJson       the tool's answer; nullable
 * @param errorCode        why it did not commit; nullable
 * @param errorMessage     nullable
 * @param taskId           nullable
 * @param stepId           nullable
 * @param intentMessageId  the intent message that planned the call
 * @param traceparent      that intent's W3C trace context, carried to the tool and onto its answer; nullable
 * @param terminalAt       when it became terminal; nullable
 */
public record ToolCall(
        long id,
        CallScope scope,
        ProviderKey providerKey,
        RequestHash requestHash,
        String argumentsJson,
        CallState state,
        long fence,
        long callVersion,
        int attempts,
        String externalObjectId,
        String resultJson,
        String errorCode,
        String errorMessage,
        String taskId,
        String stepId,
        String intentMessageId,
        String traceparent,
        Instant terminalAt) {
}
