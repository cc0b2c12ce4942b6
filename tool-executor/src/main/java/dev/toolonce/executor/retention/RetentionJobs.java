package dev.toolonce.executor.retention;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/** Runs the purge every {@code purgeInterval} and re-checks topic retention every {@code recheckInterval}. */
public final class RetentionJobs implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(RetentionJobs.class);

    private final RetentionPurger purger;
    private final RetentionGuard guard;
    private final Duration purgeInterval;
    private final Duration recheckInterval;
    private ScheduledExecutorService timer;

    public RetentionJobs(RetentionPurger purger, RetentionGuard guard, Duration purgeInterval, Duration recheckInterval) {
        this.purger = purger;
        this.guard = guard;
        this.purgeInterval = purgeInterval;
        this.recheckInterval = recheckInterval;
    }

    @Override
    public void start() {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "retention");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::purge, purgeInterval.toMillis(), purgeInterval.toMillis(), TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(guard::recheck, recheckInterval.toMillis(), recheckInterval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    private void purge() {
        try {
            int n;
            int total = 0;
            do {
                n = purger.purgeOnce();
                total += n;
            } while (n > 0 && total < 100_000);
            if (total > 0) {
                log.info("retention purge removed {} rows", total);
            }
        } catch (RuntimeException e) {
            log.warn("retention purge failed: {}", e.toString());
        }
    }

    @Override
    public void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return timer != null && !timer.isShutdown();
    }
}
