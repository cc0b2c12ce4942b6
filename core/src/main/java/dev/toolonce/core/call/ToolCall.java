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
 * @param facts            what the ledger knows of the call beyond its state; never null
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
        Instant terminalAt,
        Facts facts) {

    /**
     * Facts of the protocol that the ledger keeps in typed columns (docs/protocol.md §4), read by {@link
     * dev.toolonce.core.lifecycle.CallLifecycle}.
     *
     * @param kind             never null
     * @param effectPossible   an attempt since the last confirmed absence may have applied (a 5xx under native
     *                         idempotency): the call must not fail without evidence
     * @param lookupFailures   lookups that failed in a row (in a way that may pass) since the latest attempt
     * @param evidenceOfEffect a fenced-out attempt reported the effect applied (a late Applied, §11)
     */
    public record Facts(CallKind kind, boolean effectPossible, int lookupFailures, boolean evidenceOfEffect) {
        public Facts {
            java.util.Objects.requireNonNull(kind, "kind");
        }

        /** The facts of a call just planned for {@code operation}: its kind, nothing else known yet. */
        public static Facts planned(String operation) {
            return new Facts(CallKind.of(operation), false, 0, false);
        }
    }

    public ToolCall {
        java.util.Objects.requireNonNull(facts, "facts");
    }

    /** The call's kind ({@link Facts#kind}). */
    public CallKind kind() {
        return facts.kind();
    }
}
