package dev.toolonce.relay.engine;

import java.time.Duration;

/**
 * The wait before a source's engine is started again: doubles from {@code min} after each
 * failure, never beyond {@code max} (so the relay resumes within {@code max} of a recovered
 * database or broker), and falls back to {@code min} after a run that lasted {@code healthyRun}.
 * Pure; not thread-safe (one supervisor thread owns it).
 */
final class RestartBackoff {

    private final Duration min;
    private final Duration max;
    private final Duration healthyRun;
    private Duration current;

    RestartBackoff(Duration min, Duration max, Duration healthyRun) {
        if (min.compareTo(max) > 0) {
            throw new IllegalArgumentException("min " + min + " is above max " + max);
        }
        this.min = min;
        this.max = max;
        this.healthyRun = healthyRun;
        this.current = min;
    }

    /**
     * @param lastRun how long the attempt that just ended ran
     * @return how long to wait before the next attempt
     */
    Duration after(Duration lastRun) {
        if (lastRun.compareTo(healthyRun) >= 0) {
            current = min;
        }
        Duration wait = current;
        Duration doubled = current.multipliedBy(2);
        current = doubled.compareTo(max) <= 0 ? doubled : max;
        return wait;
    }
}
