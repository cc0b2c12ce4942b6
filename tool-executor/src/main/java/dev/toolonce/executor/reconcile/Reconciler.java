package dev.toolonce.executor.reconcile;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.lifecycle.CallLifecycle;
import dev.toolonce.core.lifecycle.Event;
import dev.toolonce.core.lifecycle.Move;
import dev.toolonce.core.lifecycle.Verdict;
import dev.toolonce.core.outcome.LookupOutcome;
import dev.toolonce.core.retry.RetryBudget;
import dev.toolonce.executor.execution.CallFinisher;
import dev.toolonce.executor.execution.ToolFacts;
import dev.toolonce.executor.execution.ToolGateway;
import dev.toolonce.executor.ledger.ToolCallClaims;
import dev.toolonce.executor.ledger.ToolCallStore;
import dev.toolonce.executor.metrics.ExecutorStats;
import dev.toolonce.executor.schedule.Periodic;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Recovery driven from the ledger, never by re-reading Kafka (docs/protocol.md §7 and §10). Every tick:
 * the sweeper moves calls whose lease expired to UNKNOWN (fence + 1), to be looked at after their tool's
 * settle delay; then UNKNOWN calls whose time came are claimed into RECONCILING (own lease and fence) —
 * never calls of a paused tool — and the tool is asked by provider key or reference, while a heartbeat
 * keeps the leases of the claimed calls alive. What the answer does to the call is {@link CallLifecycle}'s
 * rule. The reconciler never calls the tool's effect itself.
 */
public final class Reconciler implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);
    private static final int BATCH = 32;

    private final ToolCallStore calls;
    private final ToolCallClaims claims;
    private final CallFinisher finisher;
    private final ToolGateway tools;
    private final CallLifecycle lifecycle;
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
    public Reconciler(ToolCallStore calls, ToolCallClaims claims, CallFinisher finisher, ToolGateway tools, CallLifecycle lifecycle,
                      RetryBudget budget, TransactionTemplate tx, ExecutorStats stats, Duration lease, Duration interval,
                      Duration sweepSettle) {
        this.calls = calls;
        this.claims = claims;
        this.finisher = finisher;
        this.tools = tools;
        this.lifecycle = lifecycle;
        this.budget = budget;
        this.tx = tx;
        this.stats = stats;
        this.lease = lease;
        this.interval = interval;
        this.sweepSettle = sweepSettle;
    }

    /** One sweep and one reconciliation round; public for tests that drive it by hand. */
    public int tick() {
        List<ToolCall> swept = tx.execute(s -> claims.sweepExpiredLeases(100, sweepSettle, tools.settleDelays()));
        swept.forEach(c -> {
            stats.transition(CallState.STARTED, CallState.UNKNOWN);
            log.warn("lease of call {} ({}) expired: outcome unknown, fence now {}", c.id(), c.scope(), c.fence());
        });
        List<ToolCall> claimed = tx.execute(s -> claims.claimForReconciliation(owner, BATCH, lease));
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
        List<Long> extended = claims.heartbeat(CallState.RECONCILING, mine, lease);
        if (extended.size() < mine.size()) {
            log.warn("{} of {} calls being reconciled lost their lease guard", mine.size() - extended.size(), mine.size());
        }
    }

    private void reconcile(ToolCall call) {
        LookupOutcome found = tools.lookup(call);
        Verdict v = lifecycle.decide(call, new Event.LookupAnswered(found, ToolFacts.of(tools, budget, call)));
        if (v.kind() != Verdict.Kind.MOVE) { // only for a call that is not RECONCILING, which a claim never returns
            log.warn("lookup of call {} ({}) changes nothing: {}", call.id(), call.scope(), v.reason());
            return;
        }
        // One move, or two (confirmed absent, then out of attempts), each guarded on the state the one before left.
        Optional<ToolCall> done = tx.execute(s -> {
            Optional<ToolCall> c = Optional.of(call);
            CallState from = CallState.RECONCILING;
            for (Move m : v.moves()) {
                CallState leaving = from;
                c = c.flatMap(x -> finisher.finish(x, leaving, m));
                from = m.to();
            }
            return c;
        });
        if (done.isPresent()) {
            CallState to = v.moves().get(0).to(); // counted as before: out of RECONCILING (then, maybe, out of attempts)
            stats.transition(CallState.RECONCILING, to);
            stats.reconciliation(found.getClass().getSimpleName().toLowerCase());
            if (to != CallState.UNKNOWN) { // the outcome is known now (a lookup that failed leaves it UNKNOWN)
                calls.sinceUnknown(call.id()).ifPresent(took -> stats.recovered(to, took));
            }
            log.info("reconciled call {} ({}): {} -> {} ({})", call.id(), call.scope(), found, done.get().state(),
                    v.reason());
        } else {
            stats.lostGuard();
        }
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
