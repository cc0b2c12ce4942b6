package dev.toolonce.executor.compensation;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.Compensation;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.executor.execution.CallFinisher;
import dev.toolonce.executor.schedule.Periodic;
import dev.toolonce.executor.metrics.ExecutorStats;
import dev.toolonce.executor.ledger.ToolCallStore;
import dev.toolonce.executor.ledger.Finish;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Drives compensations from the ledger (docs/protocol.md §17), every reconcile interval:
 * <ul>
 *   <li><b>release</b>: a planned compensation is held ({@code next_attempt_at = 'infinity'}) while its original may
 *   still change — in flight, unknown (being reconciled) or in review. Once the original is {@code COMMITTED} with an
 *   external id it moves {@code COMMITTED → COMPENSATING} and the compensation is made due, in one transaction;
 *   the dispatcher then sends it. An original that can no longer be compensated (absent, failed, committed
 *   without an external id) releases the compensation too, and the gateway refuses it {@code NOT_COMPENSABLE}, so
 *   the agent gets an answer.</li>
 *   <li><b>settle</b>: an original in {@code COMPENSATING} moves to {@code COMPENSATED} when its compensation
 *   committed (a result {@code COMPENSATED} to the original's intent), and to {@code NEEDS_REVIEW}
 *   ({@value #COMPENSATION_FAILED}) when its compensation failed finally: the effect still stands and a human
 *   decides. While the compensation itself is in review, the original stays {@code COMPENSATING}; an operator's
 *   commit of the compensation settles it.</li>
 * </ul>
 * Every move is a guarded {@link CallFinisher#finish}; two executors racing settle each call once.
 */
public final class CompensationDriver implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(CompensationDriver.class);
    /** Error code of an original whose compensation failed finally. */
    public static final String COMPENSATION_FAILED = "COMPENSATION_FAILED";
    private static final int BATCH = 64;
    /** Originals whose outcome may still change: their compensation waits. */
    private static final Set<CallState> WAIT = EnumSet.of(CallState.PLANNED, CallState.STARTED,
            CallState.FAILED_RETRYABLE, CallState.UNKNOWN, CallState.RECONCILING, CallState.NEEDS_REVIEW);
    private static final Finish TO_COMPENSATING = Finish.compensating(null, null, null);

    private final ToolCallStore calls;
    private final CallFinisher finisher;
    private final TransactionTemplate tx;
    private final ExecutorStats stats;
    private final Duration interval;
    private final Periodic timer = new Periodic("compensations");

    public CompensationDriver(ToolCallStore calls, CallFinisher finisher, TransactionTemplate tx, ExecutorStats stats,
                              Duration interval) {
        this.calls = calls;
        this.finisher = finisher;
        this.tx = tx;
        this.stats = stats;
        this.interval = interval;
    }

    /** One release and one settle round; public for tests that drive it by hand. @return calls moved or released */
    public int tick() {
        int n = 0;
        for (ToolCallStore.HeldCompensation h : calls.heldCompensations(BATCH)) {
            n += safely(() -> release(h));
        }
        for (ToolCallStore.CompensatingOriginal p : calls.settledCompensations(BATCH)) {
            n += safely(() -> settle(p));
        }
        return n;
    }

    private int release(ToolCallStore.HeldCompensation held) {
        return tx.execute(s -> {
            Optional<ToolCall> original = calls.findForShare(Compensation.originalOf(held.scope()));
            if (original.isPresent() && WAIT.contains(original.get().state())) {
                return 0;
            }
            if (original.isPresent() && original.get().state() == CallState.COMMITTED
                    && original.get().externalObjectId() != null) {
                ToolCall o = original.get();
                if (finisher.finish(o, CallState.COMMITTED, TO_COMPENSATING).isEmpty()) {
                    stats.lostGuard();
                    return 0; // moved meanwhile: looked at again next round
                }
                stats.transition(CallState.COMMITTED, CallState.COMPENSATING);
                log.info("compensating call {} ({}), external id {}", o.id(), o.scope(), o.externalObjectId());
            }
            return calls.releaseCompensation(held.id()) ? 1 : 0;
        });
    }

    private int settle(ToolCallStore.CompensatingOriginal pair) {
        boolean undone = pair.compensationState() == CallState.COMMITTED;
        Finish f = undone
                ? Finish.compensated()
                : Finish.review("COMPENSATION", COMPENSATION_FAILED,
                "the compensation " + Compensation.of(pair.original()) + " failed finally; the effect still stands");
        return tx.execute(s -> calls.findForShare(pair.original())
                .filter(o -> o.state() == CallState.COMPENSATING)
                .flatMap(o -> finisher.finish(o, CallState.COMPENSATING, f))
                .map(o -> {
                    stats.transition(CallState.COMPENSATING, f.to());
                    log.info("call {} ({}) is {}", o.id(), o.scope(), f.to());
                    return 1;
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
