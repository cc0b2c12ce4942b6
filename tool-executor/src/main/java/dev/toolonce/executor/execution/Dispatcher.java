package dev.toolonce.executor.execution;

import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.outcome.ToolOutcome;
import dev.toolonce.jdbc.ToolCallStore;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
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
 * each on the worker pool: the tool call happens outside any transaction, its outcome is then recorded
 * by {@link Completion}. It claims only as many calls as it has free workers, so a claimed call never
 * waits in a queue while its lease runs, and a slow tool holds workers, never a Kafka partition.
 */
public final class Dispatcher implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    private final ToolCallStore calls;
    private final ToolGateway gateway;
    private final Completion completion;
    private final TransactionTemplate tx;
    private final int claimBatch;
    private final Duration lease;
    private final Duration idlePoll;
    private final Semaphore freeWorkers;
    private final Semaphore wakeups = new Semaphore(0);
    private final ExecutorService workers;
    private final String owner = "executor-" + UUID.randomUUID();
    private volatile boolean running;
    private Thread loop;

    public Dispatcher(ToolCallStore calls, ToolGateway gateway, Completion completion, TransactionTemplate tx,
                      int workerCount, int claimBatch, Duration lease, Duration idlePoll) {
        this.calls = calls;
        this.gateway = gateway;
        this.completion = completion;
        this.tx = tx;
        this.claimBatch = claimBatch;
        this.lease = lease;
        this.idlePoll = idlePoll;
        this.freeWorkers = new Semaphore(workerCount);
        AtomicInteger n = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(workerCount, r -> {
            Thread t = new Thread(r, "tool-worker-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Asks the dispatcher to look for due work now (called after intake commits). */
    public void wake() {
        wakeups.release();
    }

    @Override
    public void start() {
        running = true;
        loop = new Thread(this::run, "dispatcher");
        loop.setDaemon(true);
        loop.start();
    }

    @Override
    public void stop() {
        running = false;
        wake();
        workers.shutdown();
        try {
            if (!workers.awaitTermination(20, TimeUnit.SECONDS)) {
                log.warn("tool calls still running at shutdown; their leases will expire and the sweeper decides");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void run() {
        while (running) {
            try {
                int claimed = claimAndSubmit();
                if (claimed == 0) {
                    wakeups.tryAcquire(idlePoll.toMillis(), TimeUnit.MILLISECONDS);
                    wakeups.drainPermits();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.error("dispatch failed; retrying shortly", e);
                sleepQuietly(idlePoll);
            }
        }
    }

    private int claimAndSubmit() throws InterruptedException {
        freeWorkers.acquire();
        int free = 1 + freeWorkers.drainPermits();
        List<ToolCall> claimed = tx.execute(s -> calls.claim(owner, Math.min(free, claimBatch), lease));
        freeWorkers.release(free - claimed.size());
        for (ToolCall call : claimed) {
            workers.execute(() -> runOne(call));
        }
        return claimed.size();
    }

    private void runOne(ToolCall call) {
        try {
            ToolOutcome outcome = gateway.execute(call);
            completion.record(call, outcome);
        } catch (RuntimeException e) {
            // The call stays STARTED; its lease expires and the outcome is treated as unknown.
            log.error("recording the outcome of call {} failed", call.id(), e);
        } finally {
            freeWorkers.release();
            wakeups.release();
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
