package dev.toolonce.executor.compensation;

import dev.toolonce.core.call.Compensation;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.lifecycle.CallLifecycle;
import dev.toolonce.core.lifecycle.Event;
import dev.toolonce.core.lifecycle.Move;
import dev.toolonce.core.lifecycle.Verdict;
import dev.toolonce.executor.execution.CallFinisher;
import dev.toolonce.executor.ledger.ToolCallCompensations;
import dev.toolonce.executor.ledger.ToolCallStore;
import dev.toolonce.executor.metrics.ExecutorStats;
import dev.toolonce.executor.schedule.Periodic;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Drives compensations from the ledger (docs/protocol.md §17), every reconcile interval; what each step does to the
 * original is {@link CallLifecycle}'s rule ({@link Event.CompensationRequested}, {@link Event.CompensationEnded}):
 * <ul>
 *   <li><b>release</b>: a planned compensation is held (the ledger's {@code held} column) while its original may
 *   still change. When the lifecycle lets it go, the original moves {@code COMMITTED → COMPENSATING} if it has an
 *   effect to undo, and the compensation is made due, in one transaction; the dispatcher then sends it (or the gateway
 *   refuses it {@code NOT_COMPENSABLE} when there is nothing to undo by id, so the agent gets an answer).</li>
 *   <li><b>settle</b>: an original in {@code COMPENSATING} whose compensation committed or failed finally moves to
 *   {@code COMPENSATED}, or to {@code NEEDS_REVIEW} ({@value CallLifecycle#COMPENSATION_FAILED}): the effect still
 *   stands and a human decides. While the compensation itself is in review, the original stays {@code COMPENSATING};
 *   an operator's commit of the compensation settles it.</li>
 * </ul>
 * Every move is a guarded {@link CallFinisher#finish}; two executors racing settle each call once.
 */
public final class CompensationDriver implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(CompensationDriver.class);
    private static final int BATCH = 64;

    private final ToolCallStore calls;
    private final ToolCallCompensations holds;
    private final CallFinisher finisher;
    private final CallLifecycle lifecycle;
    private final TransactionTemplate tx;
    private final ExecutorStats stats;
    private final Duration interval;
    private final Periodic timer = new Periodic("compensations");

    public CompensationDriver(ToolCallStore calls, ToolCallCompensations holds, CallFinisher finisher,
                              CallLifecycle lifecycle, TransactionTemplate tx, ExecutorStats stats, Duration interval) {
        this.calls = calls;
        this.holds = holds;
        this.finisher = finisher;
        this.lifecycle = lifecycle;
        this.tx = tx;
        this.stats = stats;
        this.interval = interval;
    }

    /** One release and one settle round; public for tests that drive it by hand. @return calls moved or released */
    public int tick() {
        int n = 0;
        for (ToolCallCompensations.HeldCompensation h : holds.heldCompensations(BATCH)) {
            n += safely(() -> release(h));
        }
        for (ToolCallCompensations.CompensatingOriginal p : holds.settledCompensations(BATCH)) {
            n += safely(() -> settle(p));
        }
        return n;
    }

    private int release(ToolCallCompensations.HeldCompensation held) {
        return tx.execute(s -> {
            Optional<ToolCall> original = calls.findForShare(Compensation.originalOf(held.scope()));
            if (original.isPresent()) {
                ToolCall o = original.get();
                Verdict v = lifecycle.decide(o, new Event.CompensationRequested());
                if (v.kind() == Verdict.Kind.WAIT) {
                    return 0;
                }
                if (v.kind() == Verdict.Kind.MOVE) {
                    Move m = v.only();
                    if (finisher.finish(o, o.state(), m).isEmpty()) {
                        stats.lostGuard();
                        return 0; // moved meanwhile: looked at again next round
                    }
                    stats.transition(o.state(), m.to());
                    log.info("call {} ({}) is {}: {}", o.id(), o.scope(), m.to(), v.reason());
                }
            }
            return holds.releaseCompensation(held.id()) ? 1 : 0;
        });
    }

    private int settle(ToolCallCompensations.CompensatingOriginal pair) {
        return tx.execute(s -> calls.findForShare(pair.original()).map(o -> {
            Verdict v = lifecycle.decide(o, new Event.CompensationEnded(pair.compensationState()));
            if (v.kind() != Verdict.Kind.MOVE) {
                return 0; // moved meanwhile (or no outcome yet): looked at again next round
            }
            Move m = v.only();
            return finisher.finish(o, o.state(), m).map(done -> {
                stats.transition(o.state(), m.to());
                log.info("call {} ({}) is {}", done.id(), done.scope(), m.to());
                return 1;
            }).orElse(0);
        }).orElse(0));
    }

    private static int safely(java.util.function.IntSupplier step) {
        try {
            return step.getAsInt();
        } catch (RuntimeException e) {
            log.warn("compensation round step failed (tried again next round): {}", e.toString());
            return 0;
        }
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
