package dev.toolonce.executor.execution;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.executor.faults.FaultPoints;
import dev.toolonce.executor.schedule.Periodic;
import dev.toolonce.executor.metrics.ExecutorStats;
import dev.toolonce.core.outcome.ToolOutcome;
import dev.toolonce.executor.ledger.ToolCallClaims;
import dev.toolonce.executor.ledger.ToolCallStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Claims due calls just before sending them (PLANNED→STARTED, fence + 1, lease in database time) and runs
 * each on the worker pool: the tool call happens outside any transaction (through the {@link ToolGateway}, which
 * sends a compensation as its original's undo, {@code CompensationGateway}), its outcome is then recorded through
 * the {@link GroupCommitter}, many calls per transaction, as {@code CallLifecycle} decides. It claims only as
 * many calls as it has free workers, so a claimed call never waits in a queue while its lease runs, and a
 * slow tool holds workers, never a Kafka partition.
 *
 * <p>The pre-send re-check (docs/protocol.md §6) asks whether the claim still holds. Nothing but the
 * sweeper can take a STARTED call from its claimant, and the sweeper only takes calls whose lease ran out.
 * The lease was set by the claim statement, so it cannot run out before {@code lease} has passed since that
 * statement was sent. While less than half the lease has passed on this process's monotonic clock, the
 * answer is therefore known without asking the database; after that (a stalled worker, a stopped process)
 * the database is asked.
 */
public final class Dispatcher implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    private final ToolCallClaims claims;
    private final ToolGateway gateway;
    private final TransactionTemplate tx;
    private final int claimBatch;
    private final Duration lease;
    private final Duration idlePoll;
    private final Duration heartbeat;
    private final boolean startAtIntake;
    private final FaultPoints faultPoints;
    private final ExecutorStats stats;
    private final Map<Long, ToolCall> inFlight = new ConcurrentHashMap<>();
    private final Periodic heartbeats = new Periodic("lease-heartbeat");
    private final Semaphore freeWorkers;
    private final Semaphore wakeups = new Semaphore(0);
    private final ExecutorService workers;
    private final GroupCommitter committer;
    private final long freshClaimNanos;
    private final String owner = "executor-" + UUID.randomUUID();
    private volatile boolean running;
    private volatile boolean failing;
    private volatile long lastRound = System.nanoTime();
    private volatile Thread loop;
    /** Ids of calls just planned by this process's intake, oldest first; see {@link #offer}. */
    private final Queue<Long> hints = new ConcurrentLinkedQueue<>();
    private final AtomicInteger hintCount = new AtomicInteger();
    private static final int MAX_HINTS = 16_384;
    /** How long {@link #stop} waits for the loop's last round: one claim statement, or a worker's finish. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);
    private volatile long lastWalk = System.nanoTime();
    /** Whether the next round walks the due index at once: asked for by {@link #wake}, or the last walk came back full. */
    private volatile boolean walkWanted = true;

    /**
     * Timing of claims: how many, for how long, how often to extend and to look for work, and whether intake may start
     * the calls it plans itself ({@link #reserve}).
     */
    public record Settings(int workers, int claimBatch, Duration lease, Duration heartbeat, Duration idlePoll,
                           boolean startAtIntake) {
    }

    /** @param committer records the outcomes; started and stopped with this dispatcher, after its workers */
    public Dispatcher(ToolCallClaims claims, ToolGateway gateway, GroupCommitter committer, TransactionTemplate tx,
                      Settings settings, FaultPoints faultPoints, ExecutorStats stats) {
        int workerCount = settings.workers();
        this.heartbeat = settings.heartbeat();
        this.faultPoints = faultPoints;
        this.stats = stats;
        this.claims = claims;
        this.gateway = gateway;
        this.tx = tx;
        this.claimBatch = settings.claimBatch();
        this.lease = settings.lease();
        this.idlePoll = settings.idlePoll();
        this.startAtIntake = settings.startAtIntake();
        this.freeWorkers = new Semaphore(workerCount);
        this.committer = committer;
        this.freshClaimNanos = settings.lease().toNanos() / 2;
        AtomicInteger n = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(workerCount, r -> {
            Thread t = new Thread(r, "tool-worker-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Asks the dispatcher to walk the due index now rather than at its next idle poll (a paused tool resumed). Intake's
     * calls come as hints ({@link #offer}), and a worker that finishes a call only wakes the loop to use them: a walk
     * per finished call found nothing almost every time and cost a claim statement each (docs/performance.md, fourth
     * round).
     */
    public void wake() {
        walkWanted = true;
        wakeups.release();
    }

    /**
     * Hands over the ids of calls intake has just planned (committed), so that they are claimed by primary key
     * rather than found by walking the due index (docs/protocol.md §19), and wakes the loop. A hint is only a
     * shortcut: the claim re-checks every guard, and a call whose hint is dropped (the queue is full, another executor
     * took it) is found by a walk, asked for here when a hint is dropped and run at least every idle poll anyway.
     */
    public void offer(List<Long> plannedIds) {
        if (plannedIds.isEmpty()) {
            return; // nothing to claim: waking the loop would only cost a round
        }
        for (Long id : plannedIds) {
            if (hintCount.incrementAndGet() > MAX_HINTS) {
                hintCount.decrementAndGet();
                walkWanted = true;
                break;
            }
            hints.add(id);
        }
        wakeups.release();
    }

    /**
     * Sets free workers aside for the calls an intake transaction is about to plan, so that its plan insert claims as
     * many of them at once and each is handed to a worker once the transaction committed: no claim statement or
     * transaction of their own and no hand-off to the dispatch loop (docs/protocol.md §6, "Claimed by intake").
     * Workers are set aside only when some are free and no call this dispatcher knows of waits for one (no hint
     * queued, no walk asked for), so a fresh call never overtakes a hinted one; a call the loop does not know of (a
     * retry come due, a released compensation, another executor's plan) waits for the next walk, at most an idle
     * poll, as it did behind hints. Otherwise none are set aside, and intake's calls come to {@link #offer} as before.
     *
     * <p>Use: reserve before the transaction, pass {@link Start#starting} to the plan insert inside it, {@link
     * Start#run} the calls it started once it committed, and {@link Start#close} always, which returns every worker
     * not given a call.
     *
     * @param wanted the most calls the transaction can plan
     */
    public Start reserve(int wanted) {
        int reserved = 0;
        if (startAtIntake && running && !walkWanted && hintCount.get() == 0) {
            int most = Math.min(wanted, claimBatch);
            while (reserved < most && freeWorkers.tryAcquire()) {
                reserved++;
            }
        }
        return new Start(reserved);
    }

    /** Workers set aside by {@link #reserve} for the calls of one intake transaction. Not thread-safe: one per batch. */
    public final class Start implements AutoCloseable {
        private int reserved;
        private long sentAt;

        private Start(int reserved) {
            this.reserved = reserved;
        }

        /**
         * What the plan insert may claim: as many calls as workers were set aside, for this dispatcher, with its lease.
         * Asked just before the transaction: the lease cannot run out before {@code lease} has passed from here, which
         * is what the pre-send re-check counts from (§6).
         */
        public ToolCallStore.Starting starting() {
            sentAt = System.nanoTime();
            return reserved == 0 ? ToolCallStore.Starting.NONE : new ToolCallStore.Starting(reserved, owner, lease);
        }

        /** After the transaction committed: hands each call its plan insert started to a worker set aside. */
        public void run(List<ToolCall> started) {
            if (started.size() > reserved) {
                throw new IllegalStateException(started.size() + " calls started for " + reserved + " workers");
            }
            int submitted = 0;
            for (ToolCall call : started) {
                try {
                    workers.execute(() -> runOne(call, sentAt));
                } catch (RejectedExecutionException e) {
                    // stopping: the call stays STARTED until its lease runs out, then the sweeper decides (§7)
                    log.warn("call {} was claimed as the dispatcher stopped; not sent", call.id());
                    continue;
                }
                reserved--;
                submitted++;
            }
            stats.claimed("intake", submitted);
        }

        /** Returns every worker set aside and not given a call (all of them when the transaction did not commit). */
        @Override
        public void close() {
            freeWorkers.release(reserved);
            reserved = 0;
        }
    }

    @Override
    public void start() {
        running = true;
        committer.start();
        loop = new Thread(this::run, "dispatcher");
        loop.setDaemon(true);
        loop.start();
        heartbeats.every(heartbeat, this::extendLeases);
    }

    /**
     * Below the Kafka listener containers' phase ({@code AbstractMessageListenerContainer.DEFAULT_PHASE}, {@code
     * Integer.MAX_VALUE - 100}): the dispatcher starts before intake and stops after it, so a batch whose plan insert
     * claimed calls always finds the workers it set aside still accepting them; a pool closed under it would leave
     * those calls STARTED, never sent, until their lease ran out and reconciliation asked the tool.
     */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 200;
    }

    @Override
    public void stop() {
        running = false;
        wake();
        Thread dispatching = loop;
        if (dispatching != null) {
            try {
                // A round already past its `running` check hands what it claimed to the pool before the pool closes.
                dispatching.join(STOP_WAIT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        workers.shutdown();
        heartbeats.stop();
        try {
            if (!workers.awaitTermination(20, TimeUnit.SECONDS)) {
                log.warn("tool calls still running at shutdown; their leases will expire and the sweeper decides");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        committer.stop(); // after the workers: a worker that is still recording waits for its group
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void run() {
        while (running) {
            lastRound = System.nanoTime();
            try {
                int claimed = claimAndSubmit();
                if (claimed == 0 && hintCount.get() == 0) {
                    long untilWalk = idlePoll.toNanos() - (System.nanoTime() - lastWalk);
                    wakeups.tryAcquire(Math.max(1_000_000L, Math.min(untilWalk, idlePoll.toNanos())),
                            TimeUnit.NANOSECONDS);
                    wakeups.drainPermits();
                }
                failing = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | Error e) {
                // Any failure (the database restarting, a bug) costs one round, never the loop.
                if (!failing) {
                    log.error("dispatch failed; retrying every {} until it works", idlePoll, e);
                } else {
                    log.debug("dispatch still failing: {}", e.toString());
                }
                failing = true;
                sleepQuietly(idlePoll);
            }
        }
    }

    /**
     * Claims as many due calls as there are free workers and hands each to one. Every permit taken is either
     * given to a submitted call (which returns it when done) or returned here, whatever fails.
     */
    private int claimAndSubmit() throws InterruptedException {
        freeWorkers.acquire();
        int free = 1 + freeWorkers.drainPermits();
        int submitted = 0;
        try {
            if (!running) {
                return 0; // stopping: a call claimed now could not be handed to the closed pool and would sit STARTED
            }
            long sentAt = System.nanoTime();
            int limit = Math.min(free, claimBatch);
            boolean walk = walkDue(sentAt);
            List<Long> hinted = walk ? List.of() : takeHints(limit);
            if (!walk && hinted.isEmpty()) {
                return 0; // nothing hinted, nothing asked for, and the last walk found all that was due
            }
            List<ToolCall> claimed;
            if (walk) {
                walkWanted = false;
                claimed = tx.execute(s -> claims.claim(owner, limit, lease));
                lastWalk = sentAt;
                if (claimed.size() == limit) {
                    walkWanted = true; // a full walk may have left due calls behind (a plain write: no wake() is lost)
                }
            } else {
                claimed = tx.execute(s -> claims.claimByIds(owner, hinted, lease));
            }
            for (ToolCall call : claimed) {
                workers.execute(() -> runOne(call, sentAt));
                submitted++;
            }
            stats.claimed("dispatcher", submitted);
            return submitted;
        } finally {
            freeWorkers.release(free - submitted);
        }
    }

    /**
     * Whether this round walks the due index: when asked to ({@link #wake}, or the last walk was full) and no hint
     * waits, and at least once per idle poll whatever the hints, so that retries that came due and calls planned
     * elsewhere are not starved by a stream of fresh plans.
     */
    private boolean walkDue(long now) {
        return (walkWanted && hintCount.get() == 0) || now - lastWalk >= idlePoll.toNanos();
    }

    private List<Long> takeHints(int limit) {
        List<Long> taken = new ArrayList<>(limit);
        Long id;
        while (taken.size() < limit && (id = hints.poll()) != null) {
            hintCount.decrementAndGet();
            taken.add(id);
        }
        return taken;
    }

    /**
     * Whether the dispatch loop is alive, not stuck (it ran a round within {@code maxSilence}; a round waits at
     * most the idle poll, or a claim statement) and its last round did not fail.
     */
    public boolean healthy(Duration maxSilence) {
        return alive(maxSilence) && !failing;
    }

    /**
     * Whether the dispatch loop runs and is not stuck, whether or not its rounds succeed: what a liveness probe
     * asks (a database outage makes rounds fail, and restarting the process would not cure it).
     */
    public boolean alive(Duration maxSilence) {
        return running && loop != null && loop.isAlive() && System.nanoTime() - lastRound < maxSilence.toNanos();
    }

    private void runOne(ToolCall call, long claimSentAt) {
        CallLogContext.enter(call);
        try {
            faultPoints.reach(FaultPoints.BEFORE_SEND);
            // docs/protocol.md §6: re-check fence and lease just before sending; a swept call is not ours to send.
            if (!stillHeld(call, claimSentAt)) {
                stats.fencedBeforeSend();
                log.warn("call {} at fence {} was fenced out before sending; not sent", call.id(), call.fence());
                return;
            }
            faultPoints.reach(FaultPoints.AFTER_CHECK);
            inFlight.put(call.id(), call); // heartbeats from here on: a stalled claimant's lease runs out
            long sent = System.nanoTime();
            ToolOutcome outcome = gateway.execute(call);
            stats.toolCall(call.scope().tool(), call.scope().operation(), outcome.getClass().getSimpleName(),
                    System.nanoTime() - sent);
            faultPoints.reach(FaultPoints.AFTER_TOOL_BEFORE_RECORD);
            committer.record(call, outcome);
            faultPoints.reach(FaultPoints.AFTER_RECORD);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.warn("interrupted while running or recording call {}; its lease will expire and the sweeper decides",
                    call.id());
        } catch (RuntimeException | Error e) {
            // The call stays STARTED; its lease expires and the outcome is treated as unknown.
            log.error("running or recording call {} failed; its lease will expire and the sweeper decides", call.id(), e);
        } finally {
            CallLogContext.leave();
            inFlight.remove(call.id());
            freeWorkers.release();
            if (hintCount.get() > 0 || walkWanted) {
                wakeups.release(); // the loop waits for a worker only when something waits to be claimed
            }
        }
    }

    /** The claim still holds: known from its age while young (see the class comment), else asked of the database. */
    private boolean stillHeld(ToolCall call, long claimSentAt) {
        if (System.nanoTime() - claimSentAt < freshClaimNanos) {
            return true;
        }
        return claims.stillHeld(call, CallState.STARTED);
    }

    /** One batched, guarded heartbeat for every call this dispatcher is running. */
    private void extendLeases() {
        try {
            List<ToolCall> held = List.copyOf(inFlight.values());
            List<Long> extended = claims.heartbeat(CallState.STARTED, held, lease);
            if (extended.size() < held.size()) {
                log.warn("{} of {} running calls lost their lease guard; their outcomes will be fenced",
                        held.size() - extended.size(), held.size());
            }
        } catch (RuntimeException e) {
            log.warn("lease heartbeat failed (next one in {}): {}", heartbeat, e.toString());
        }
    }

    private static void sleepQuietly(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
