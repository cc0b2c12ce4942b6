package dev.toolonce.executor.execution;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Named places where a fault test can stop this JVM dead ({@code Runtime.halt}: no shutdown hooks, no
 * flush — what SIGKILL does) or stall the first worker that gets there (a GC pause or SIGSTOP between two
 * steps). Disarmed unless {@code toolonce.executor.crash-at} or {@code toolonce.executor.pause-at} is set;
 * production configuration never sets them.
 */
public final class CrashPoints {
    /** After the tool applied the effect and before the outcome is recorded. */
    public static final String AFTER_TOOL_BEFORE_RECORD = "after-tool-before-record";
    /** After the outcome (and its result event) is recorded. */
    public static final String AFTER_RECORD = "after-record";
    /** Between the claim and the pre-send re-check. */
    public static final String BEFORE_SEND = "before-send";
    /** After the pre-send re-check, before the request leaves and before heartbeats cover the call. */
    public static final String AFTER_CHECK = "after-check";

    private static final Logger log = LoggerFactory.getLogger(CrashPoints.class);

    private final String crashAt;
    private final String pauseAt;
    private final Duration pauseFor;
    private final AtomicBoolean paused = new AtomicBoolean();

    /**
     * @param crashAt  a point name, or null/blank for none
     * @param pauseAt  a point name, or null/blank for none; only the first worker to reach it stalls
     * @param pauseFor how long that worker stalls
     */
    public CrashPoints(String crashAt, String pauseAt, Duration pauseFor) {
        this.crashAt = crashAt == null ? "" : crashAt.trim();
        this.pauseAt = pauseAt == null ? "" : pauseAt.trim();
        this.pauseFor = pauseFor == null ? Duration.ZERO : pauseFor;
    }

    /** Halts the JVM (exit status 137) or stalls this thread when {@code point} is armed. */
    public void reach(String point) {
        if (crashAt.equals(point)) {
            log.warn("crash point '{}' reached: halting the JVM", point);
            Runtime.getRuntime().halt(137);
        }
        if (pauseAt.equals(point) && paused.compareAndSet(false, true)) {
            log.warn("pause point '{}' reached: stalling this worker for {}", point, pauseFor);
            try {
                Thread.sleep(pauseFor.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            log.warn("pause point '{}': resuming", point);
        }
    }
}
