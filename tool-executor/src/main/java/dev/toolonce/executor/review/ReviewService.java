package dev.toolonce.executor.review;

import dev.toolonce.core.call.Compensation;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHasher;
import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.executor.execution.CallFinisher;
import dev.toolonce.executor.execution.Completion;
import dev.toolonce.executor.metrics.ExecutorStats;
import dev.toolonce.executor.ledger.ToolCallStore;
import dev.toolonce.executor.ledger.Finish;
import dev.toolonce.executor.ledger.ReviewAuditStore;
import java.time.Duration;
import java.util.List;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Human decisions on calls in NEEDS_REVIEW (docs/protocol.md §16): commit with the external id the operator
 * found, retry (after the operator reconciled by hand), fail, or compensate (undo the effect through the tool's
 * compensation, docs/protocol.md §17). Each resolution is a guarded transition,
 * an audit row ({@link ReviewAuditStore}) and — for commit and fail — a result event, all in one transaction.
 */
public final class ReviewService {
    /** What the operator decided. */
    public enum Action { COMMIT, RETRY, FAIL, COMPENSATE }

    private final ToolCallStore calls;
    private final CallFinisher finisher;
    private final ReviewAuditStore audit;
    private final TransactionTemplate tx;
    private final ExecutorStats stats;
    private final RequestHasher hasher = new RequestHasher();

    public ReviewService(ToolCallStore calls, CallFinisher finisher, ReviewAuditStore audit, TransactionTemplate tx,
                         ExecutorStats stats) {
        this.calls = calls;
        this.finisher = finisher;
        this.audit = audit;
        this.tx = tx;
        this.stats = stats;
    }

    /**
     * Calls waiting for a human, oldest first.
     *
     * @param tenants only these tenants' calls; null for every tenant
     */
    public List<ToolCall> pending(String[] tenants, int limit) {
        return calls.inState(CallState.NEEDS_REVIEW, tenants, limit);
    }

    /**
     * @param externalId required for {@link Action#COMMIT}, ignored otherwise
     * @return the call after the resolution
     * @param operator   the authenticated principal, recorded in the audit
     * @throws java.util.NoSuchElementException when no call has this scope
     * @throws IllegalArgumentException when the call is not in review, or commit lacks an id
     * @throws IllegalStateException when someone else resolved it first (lost guard), or a retry is refused
     *         because the effect may exist: the call has an external id, evidence of an effect (a late
     *         Applied), or a duplicate alarm — sending it again could apply it twice; commit or fail instead
     */
    public ToolCall resolve(CallScope scope, Action action, String externalId, String operator, String note) {
        if (action == Action.COMMIT && (externalId == null || externalId.isBlank())) {
            throw new IllegalArgumentException("commit needs the external id of the effect the operator found");
        }
        return tx.execute(s -> {
            ToolCall call = calls.find(scope).orElseThrow(() -> new java.util.NoSuchElementException("no call for scope " + scope));
            if (call.state() != CallState.NEEDS_REVIEW) {
                throw new IllegalArgumentException("call " + scope + " is " + call.state() + ", not NEEDS_REVIEW");
            }
            if (action == Action.RETRY) {
                refuseRetryOfAnEffect(call);
            }
            if (action == Action.COMPENSATE) {
                refuseCompensation(call, externalId);
            }
            ToolCall done = finisher.finish(call, CallState.NEEDS_REVIEW, finish(action, externalId, operator, note))
                    .orElseThrow(() -> new IllegalStateException("call " + scope + " was resolved concurrently"));
            if (action == Action.COMPENSATE) {
                planCompensation(done);
            }
            audit.record(call.id(), scope.recordKey(), action.name().toLowerCase(), externalId, operator, note,
                    call.fence());
            stats.review(action.name().toLowerCase());
            return done;
        });
    }

    /** An operator's retry resends the effect: never for a call whose effect is known or may exist. */
    private void refuseRetryOfAnEffect(ToolCall call) {
        String why = call.externalObjectId() != null ? "it has an external id (" + call.externalObjectId() + ")"
                : Completion.DUPLICATE_EFFECT.equals(call.errorCode()) ? "it carries a duplicate alarm"
                : calls.hasEvidenceOfEffect(call.id()) ? "a fenced-out attempt reported the effect applied (evidence "
                        + "in its attempt history)"
                : null;
        if (why != null) {
            throw new IllegalStateException("retry of " + call.scope() + " refused: " + why
                    + "; resolve it with commit (the effect exists) or fail");
        }
    }

    /**
     * docs/protocol.md §17: compensate only an effect known by its external id (the call's, or the one the operator
     * found), never a compensation itself, and only where the tool can compensate.
     */
    private void refuseCompensation(ToolCall call, String externalId) {
        if (Compensation.isCompensation(call.scope())) {
            throw new IllegalArgumentException(call.scope() + " is a compensation; commit, retry or fail it");
        }
        if (call.externalObjectId() == null && (externalId == null || externalId.isBlank())) {
            throw new IllegalArgumentException("compensate needs the external id of the effect to undo: " + call.scope()
                    + " has none recorded");
        }
        Compensation.of(call.scope()); // throws when the operation name is too long to derive one
    }

    /**
     * Plans the compensation call, due now, addressed to the original's intent (its task and step); an earlier,
     * held request of the agent for the same compensation is released instead.
     */
    private void planCompensation(ToolCall original) {
        CallScope scope = Compensation.of(original.scope());
        var args = tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        ToolCallStore.NewCall c = new ToolCallStore.NewCall(scope, ProviderKey.of(scope), hasher.hash(scope, args),
                args.toString(),
                original.taskId(), original.stepId(), original.intentMessageId(), original.traceparent());
        if (calls.insertPlanned(c).isEmpty()) {
            calls.find(scope).ifPresent(existing -> calls.releaseCompensation(existing.id()));
        }
    }

    private static Finish finish(Action action, String externalId, String operator, String note) {
        String why = "resolved by " + operator + (note == null || note.isBlank() ? "" : ": " + note);
        return switch (action) {
            case COMMIT -> Finish.committed(externalId, null);
            case RETRY -> Finish.retryIn(Duration.ZERO, "OPERATOR", null, why);
            case FAIL -> Finish.failedFinal("OPERATOR", "OPERATOR_FAILED", why);
            case COMPENSATE -> Finish.compensating(externalId == null || externalId.isBlank() ? null : externalId,
                    "OPERATOR", why);
        };
    }
}
