package dev.toolonce.executor.retention;

import dev.toolonce.executor.schedule.Periodic;
import java.time.Duration;
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
    private final Periodic timer = new Periodic("retention");

    public RetentionJobs(RetentionPurger purger, RetentionGuard guard, Duration purgeInterval, Duration recheckInterval) {
        this.purger = purger;
        this.guard = guard;
        this.purgeInterval = purgeInterval;
        this.recheckInterval = recheckInterval;
    }

    @Override
    public void start() {
        timer.every(purgeInterval, this::purge);
        timer.every(recheckInterval, guard::recheck);
    }

    private void purge() {
        int n;
        int total = 0;
        do {
            n = purger.purgeOnce();
            total += n;
        } while (n > 0 && total < 100_000);
        if (total > 0) {
            log.info("retention purge removed {} rows", total);
        }
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
