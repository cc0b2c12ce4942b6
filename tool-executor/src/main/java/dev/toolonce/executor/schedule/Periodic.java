package dev.toolonce.executor.schedule;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One daemon thread running background rounds at fixed delays (sweeps, reconciliation, heartbeats,
 * purges). A round that throws is logged and the next one still runs. Thread-safe.
 */
public final class Periodic {
    private static final Logger log = LoggerFactory.getLogger(Periodic.class);

    private final String name;
    private ScheduledExecutorService timer;
    private volatile long lastSuccess;
    private volatile int failures;

    /** @param name the thread's name, also used in log lines */
    public Periodic(String name) {
        this.name = name;
    }

    /** Runs {@code task} every {@code delay}, the first time after one delay. */
    public synchronized void every(Duration delay, Runnable task) {
        if (timer == null || timer.isShutdown()) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            });
        }
        timer.scheduleWithFixedDelay(() -> runSafely(task, delay), delay.toMillis(), delay.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    private void runSafely(Runnable task, Duration delay) {
        try {
            task.run();
            lastSuccess = System.nanoTime();
            failures = 0;
        } catch (Throwable e) {
            // A scheduled task that throws is never run again: nothing may leave this method.
            failures++;
            if (failures == 1 || failures % 60 == 0) {
                log.error("{} round failed ({} in a row); next round in {}", name, failures, delay, e);
            } else {
                log.warn("{} round failed ({} in a row): {}", name, failures, e.toString());
            }
            if (e instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Whether a round succeeded within {@code window} (or none has run yet after starting). */
    public boolean succeededWithin(Duration window) {
        return isRunning() && (lastSuccess == 0 ? failures == 0 : System.nanoTime() - lastSuccess < window.toNanos());
    }

    /** Stops every round; a running one is interrupted. */
    public synchronized void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    public synchronized boolean isRunning() {
        return timer != null && !timer.isShutdown();
    }
}
