package dev.toolonce.executor.reconcile;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.outcome.LookupOutcome;
import dev.toolonce.core.retry.RetryBudget;
import dev.toolonce.core.retry.RetryPolicy;
import dev.toolonce.executor.execution.CallFinisher;
import dev.toolonce.executor.execution.Periodic;
import dev.toolonce.executor.execution.ToolGateway;
import dev.toolonce.executor.web.ExecutorStats;
import dev.toolonce.jdbc.ToolCallStore;
import dev.toolonce.jdbc.ToolCallStore.Finish;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Recovery driven from the ledger, never by re-reading Kafka (DESIGN.md points 5 and 8). Every tick:
 * the sweeper moves calls whose lease expired to UNKNOWN (fence + 1); then UNKNOWN calls whose settle
 * delay passed are claimed into RECONCILING (own lease and fence) and the tool is asked by provider key
 * or reference. Found → COMMITTED; confirmed absent → FAILED_RETRYABLE due now, only where a retry cannot
 * duplicate the effect (else NEEDS_REVIEW), or FAILED_FINAL when attempts are used up; cannot tell →
 * NEEDS_REVIEW. The reconciler never calls the tool's effect itself.
 */
public final class Reconciler implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);
    private static final int BATCH = 32;
    /** Attempts used up on a call confirmed absent: it fails for good, reported to the agent. */
    private static final Finish EXHAUSTED = new Finish(CallState.FAILED_FINAL, null, null, "CONFIRMED_ABSENT",
            "RETRIES_EXHAUSTED", "the effect is confirmed absent and the attempts are used up", null, true);

    private final ToolCallStore calls;
    private final CallFinisher finisher;
    private final ToolGateway tools;
    private final RetryPolicy retry;
    private final RetryBudget budget;
    private final TransactionTemplate tx;
    private final ExecutorStats stats;
    private final Duration lease;
    private final Duration interval;
    private final Duration sweepSettle;
    private final String owner = "reconciler-" + UUID.randomUUID();
    private final Periodic timer = new Periodic("reconciler");

    public Reconciler(ToolCallStore calls, CallFinisher finisher, ToolGateway tools, RetryPolicy retry,
                      RetryBudget budget, TransactionTemplate tx, ExecutorStats stats, Duration lease, Duration interval,
                      Duration sweepSettle) {
        this.calls = calls;
        this.finisher = finisher;
        this.tools = tools;
        this.retry = retry;
        this.budget = budget;
        this.tx = tx;
        this.stats = stats;
        this.lease = lease;
        this.interval = interval;
        this.sweepSettle = sweepSettle;
    }

    /** One sweep and one reconciliation round; public for tests that drive it by hand. */
    public int tick() {
        List<ToolCall> swept = tx.execute(s -> calls.sweepExpiredLeases(100, sweepSettle));
        swept.forEach(c -> {
            stats.transition(CallState.STARTED, CallState.UNKNOWN);
            log.warn("lease of call {} ({}) expired: outcome unknown, fence now {}", c.id(), c.scope(), c.fence());
        });
        List<ToolCall> claimed = tx.execute(s -> calls.claimForReconciliation(owner, BATCH, lease));
        claimed.forEach(this::reconcile);
        return swept.size() + claimed.size();
    }

    private void reconcile(ToolCall call) {
        LookupOutcome found = tools.lookup(call);
        Finish finish = finishFor(call, found);
        boolean exhausted = finish.to() == CallState.FAILED_RETRYABLE && !retry.allowsAnother(call.attempts());
        boolean won = tx.execute(s -> finisher.finish(call, CallState.RECONCILING, finish)
                .flatMap(c -> exhausted ? finisher.finish(c, CallState.FAILED_RETRYABLE, EXHAUSTED) : java.util.Optional.of(c)))
                .isPresent();
        if (won) {
            stats.transition(CallState.RECONCILING, finish.to());
            stats.reconciliation(found.getClass().getSimpleName().toLowerCase());
            log.info("reconciled call {} ({}): {} -> {}", call.id(), call.scope(), found, finish.to());
        } else {
            stats.lostGuard();
        }
    }

    private Finish finishFor(ToolCall call, LookupOutcome found) {
        if (found instanceof LookupOutcome.Found f) {
            return new Finish(CallState.COMMITTED, f.externalObjectId(), f.resultJson(), null, null, null, null, true);
        }
        if (found instanceof LookupOutcome.Absent) {
            if (!tools.retrySafe(call.scope().tool(), call.scope().operation())) {
                return new Finish(CallState.NEEDS_REVIEW, null, null, "UNKNOWN_OUTCOME", "UNSAFE_TO_RETRY",
                        "the tool reports no effect but has neither native idempotency nor a unique reference",
                        null, true);
            }
            return new Finish(CallState.FAILED_RETRYABLE, null, null, "CONFIRMED_ABSENT", null,
                    "confirmed absent after an unknown outcome", budget.reserve(call.scope().tool(), Duration.ZERO), false);
        }
        LookupOutcome.CannotTell c = (LookupOutcome.CannotTell) found;
        return new Finish(CallState.NEEDS_REVIEW, null, null, "UNKNOWN_OUTCOME", "OUTCOME_UNKNOWN", c.reason(),
                null, true);
    }

    @Override
    public void start() {
        timer.every(interval, this::tick);
    }

    @Override
    public void stop() {
        timer.stop();
    }

    @Override
    public boolean isRunning() {
        return timer.isRunning();
    }
}
