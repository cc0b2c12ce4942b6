package dev.toolonce.executor.reconcile;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.outcome.LookupOutcome;
import dev.toolonce.core.retry.RetryBudget;
import dev.toolonce.core.retry.RetryPolicy;
import dev.toolonce.executor.execution.CallFinisher;
import dev.toolonce.executor.schedule.Periodic;
import dev.toolonce.executor.execution.ToolGateway;
import dev.toolonce.executor.metrics.ExecutorStats;
import dev.toolonce.executor.ledger.ToolCallStore;
import dev.toolonce.executor.ledger.Finish;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Recovery driven from the ledger, never by re-reading Kafka (docs/protocol.md §7 and §10). Every tick:
 * the sweeper moves calls whose lease expired to UNKNOWN (fence + 1), to be looked at after their tool's
 * settle delay; then UNKNOWN calls whose time came are claimed into RECONCILING (own lease and fence) —
 * never calls of a paused tool — and the tool is asked by provider key or reference, while a heartbeat
 * keeps the leases of the claimed calls alive. Found → COMMITTED; confirmed absent → FAILED_RETRYABLE due
 * now, only where a retry cannot duplicate the effect (else NEEDS_REVIEW), or FAILED_FINAL when attempts
 * are used up; lookup unavailable (timeout, 429, 5xx) → back to UNKNOWN with backoff, at most
 * {@code maxAttempts} lookups in a row before NEEDS_REVIEW; cannot tell → NEEDS_REVIEW. The reconciler
 * never calls the tool's effect itself.
 */
public final class Reconciler implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);
    private static final int BATCH = 32;
    /** Error code of a lookup that failed in a way that may pass; counted to bound the lookups. */
    public static final String LOOKUP_UNAVAILABLE = "LOOKUP_UNAVAILABLE";
    /** Attempts used up on a call confirmed absent: it fails for good, reported to the agent. */
    private static final Finish EXHAUSTED = Finish.failedFinal("CONFIRMED_ABSENT", "RETRIES_EXHAUSTED",
            "the effect is confirmed absent and the attempts are used up");

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
    private final Periodic heartbeats = new Periodic("reconciler-heartbeat");
    private final Map<Long, ToolCall> held = new ConcurrentHashMap<>();

    /**
     * @param lease       lease of a RECONCILING claim; extended every {@code lease / 6} while lookups run
     * @param interval    time between rounds
     * @param sweepSettle settle delay of a swept call whose tool is not configured
     */
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
        List<ToolCall> swept = tx.execute(s -> calls.sweepExpiredLeases(100, sweepSettle, tools.settleDelays()));
        swept.forEach(c -> {
            stats.transition(CallState.STARTED, CallState.UNKNOWN);
            log.warn("lease of call {} ({}) expired: outcome unknown, fence now {}", c.id(), c.scope(), c.fence());
        });
        List<ToolCall> claimed = tx.execute(s -> calls.claimForReconciliation(owner, BATCH, lease));
        claimed.forEach(c -> held.put(c.id(), c));
        try {
            for (ToolCall call : claimed) {
                reconcileSafely(call);
            }
        } finally {
            claimed.forEach(c -> held.remove(c.id()));
        }
        return swept.size() + claimed.size();
    }

    /** One call's failure must not leave the rest of the batch waiting for their leases to run out. */
    private void reconcileSafely(ToolCall call) {
        try {
            reconcile(call);
        } catch (RuntimeException e) {
            log.error("reconciling call {} ({}) failed; its lease will expire and it is looked at again",
                    call.id(), call.scope(), e);
        } finally {
            held.remove(call.id());
        }
    }

    /** Extends the leases of the calls this reconciler holds, so a slow lookup never gets them swept. */
    void extendLeases() {
        List<ToolCall> mine = List.copyOf(held.values());
        if (mine.isEmpty()) {
            return;
        }
        List<Long> extended = calls.heartbeat(CallState.RECONCILING, mine, lease);
        if (extended.size() < mine.size()) {
            log.warn("{} of {} calls being reconciled lost their lease guard", mine.size() - extended.size(), mine.size());
        }
    }

    private void reconcile(ToolCall call) {
        LookupOutcome found = tools.lookup(call);
        Finish finish = finishFor(call, found);
        boolean exhausted = finish.to() == CallState.FAILED_RETRYABLE && !retry.allowsAnother(call.attempts());
        boolean won = tx.execute(s -> finisher.finish(call, CallState.RECONCILING, finish)
                .flatMap(c -> exhausted ? finisher.finish(c, CallState.FAILED_RETRYABLE, EXHAUSTED) : Optional.of(c)))
                .isPresent();
        if (won) {
            stats.transition(CallState.RECONCILING, finish.to());
            stats.reconciliation(found.getClass().getSimpleName().toLowerCase());
            if (finish.to() != CallState.UNKNOWN) { // the outcome is known now (a lookup that failed leaves it UNKNOWN)
                calls.sinceUnknown(call.id()).ifPresent(took -> stats.recovered(finish.to(), took));
            }
            log.info("reconciled call {} ({}): {} -> {}", call.id(), call.scope(), found, finish.to());
        } else {
            stats.lostGuard();
        }
    }

    private Finish finishFor(ToolCall call, LookupOutcome found) {
        if (found instanceof LookupOutcome.Found f) {
            return Finish.committed(f.externalObjectId(), f.resultJson());
        }
        if (found instanceof LookupOutcome.Absent) {
            if (!tools.retrySafe(call.scope().tool(), call.scope().operation())) {
                return Finish.review("UNKNOWN_OUTCOME", "UNSAFE_TO_RETRY",
                        "the tool reports no effect but has neither native idempotency nor a unique reference");
            }
            return Finish.retryIn(budget.reserve(call.scope().tool(), Duration.ZERO), "CONFIRMED_ABSENT", null,
                    "confirmed absent after an unknown outcome");
        }
        if (found instanceof LookupOutcome.Unavailable u) {
            return unavailable(call, u);
        }
        LookupOutcome.CannotTell c = (LookupOutcome.CannotTell) found;
        return Finish.review("UNKNOWN_OUTCOME", "OUTCOME_UNKNOWN", c.reason());
    }

    /** Asked again after a backoff, unless the lookups in a row since the last attempt are used up. */
    private Finish unavailable(ToolCall call, LookupOutcome.Unavailable u) {
        int failures = calls.countSinceLastClaim(call, LOOKUP_UNAVAILABLE) + 1;
        if (!retry.allowsAnother(failures)) {
            return Finish.review("UNKNOWN_OUTCOME", "OUTCOME_UNKNOWN",
                    "the lookup failed " + failures + " times in a row; last: " + u.reason());
        }
        Duration wait = retry.delay(failures, u.retryAfter(), ThreadLocalRandom.current()::nextDouble)
                .plus(tools.settleDelay(call.scope().tool()));
        return Finish.unknown(wait, "UNKNOWN_OUTCOME", LOOKUP_UNAVAILABLE,
                "lookup " + failures + " failed (" + u.reason() + "); asking again in " + wait);
    }

    @Override
    public void start() {
        Duration beat = lease.dividedBy(6);
        heartbeats.every(beat.compareTo(Duration.ofMillis(100)) < 0 ? Duration.ofMillis(100) : beat, this::extendLeases);
        timer.every(interval, this::tick);
    }

    @Override
    public void stop() {
        timer.stop();
        heartbeats.stop();
    }

    @Override
    public boolean isRunning() {
        return timer.isRunning();
    }
}
