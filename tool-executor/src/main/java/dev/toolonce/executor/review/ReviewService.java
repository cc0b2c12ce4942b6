package dev.toolonce.executor.review;

import dev.toolonce.core.call.Compensation;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHasher;
import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.lifecycle.CallLifecycle;
import dev.toolonce.core.lifecycle.Event;
import dev.toolonce.core.lifecycle.Event.Action;
import dev.toolonce.core.lifecycle.Verdict;
import dev.toolonce.executor.execution.CallFinisher;
import dev.toolonce.executor.ledger.ReviewAuditStore;
import dev.toolonce.executor.ledger.ToolCallCompensations;
import dev.toolonce.executor.ledger.ToolCallStore;
import dev.toolonce.executor.metrics.ExecutorStats;
import java.util.List;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Human decisions on calls in NEEDS_REVIEW (docs/protocol.md §16): commit with the external id the operator
 * found, retry (after the operator reconciled by hand), fail, or compensate (undo the effect through the tool's
 * compensation, docs/protocol.md §17); which is allowed is {@link CallLifecycle}'s rule. Each resolution is a guarded
 * transition,
 * an audit row ({@link ReviewAuditStore}) and — for commit and fail — a result event, all in one transaction.
 */
public final class ReviewService {
    private final ToolCallStore calls;
    private final ToolCallCompensations holds;
    private final CallFinisher finisher;
    private final CallLifecycle lifecycle;
    private final ReviewAuditStore audit;
    private final TransactionTemplate tx;
    private final ExecutorStats stats;
    private final RequestHasher hasher = new RequestHasher();

    public ReviewService(ToolCallStore calls, ToolCallCompensations holds, CallFinisher finisher, CallLifecycle lifecycle, ReviewAuditStore audit,
                         TransactionTemplate tx, ExecutorStats stats) {
        this.calls = calls;
        this.holds = holds;
        this.finisher = finisher;
        this.lifecycle = lifecycle;
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
        return tx.execute(s -> {
            ToolCall call = calls.find(scope).orElseThrow(() -> new java.util.NoSuchElementException("no call for scope " + scope));
            Verdict v = lifecycle.decide(call, new Event.OperatorResolved(action, externalId, operator, note));
            if (v.kind() == Verdict.Kind.REFUSED) {
                throw v.refusal() == Verdict.Refusal.EFFECT_MAY_EXIST ? new IllegalStateException(v.reason())
                        : new IllegalArgumentException(v.reason());
            }
            ToolCall done = finisher.finish(call, CallState.NEEDS_REVIEW, v.only())
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
            calls.find(scope).ifPresent(existing -> holds.releaseCompensation(existing.id()));
        }
    }
}
