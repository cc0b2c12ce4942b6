package dev.toolonce.executor.faults;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fault injection: named places where a fault test can stop this JVM dead ({@code Runtime.halt}: no shutdown
 * hooks, no flush — what SIGKILL does) or stall the first worker that gets there (a GC pause or SIGSTOP between
 * two steps). Every point is a no-op unless {@code toolonce.fault-injection.enabled=true} and the point is named
 * by {@code toolonce.fault-injection.crash-at} or {@code pause-at} ({@link FaultInjectionProperties}).
 * Thread-safe.
 */
public final class FaultPoints {
    /** After the tool applied the effect and before the outcome is recorded. */
    public static final String AFTER_TOOL_BEFORE_RECORD = "after-tool-before-record";
    /** After the outcome (and its result event) is recorded. */
    public static final String AFTER_RECORD = "after-record";
    /** Between the claim and the pre-send re-check. */
    public static final String BEFORE_SEND = "before-send";
    /** After the pre-send re-check, before the request leaves and before heartbeats cover the call. */
    public static final String AFTER_CHECK = "after-check";
    /** Every point's name. */
    public static final List<String> NAMES = List.of(AFTER_TOOL_BEFORE_RECORD, AFTER_RECORD, BEFORE_SEND, AFTER_CHECK);

    private static final Logger log = LoggerFactory.getLogger(FaultPoints.class);

    private final FaultInjectionProperties settings;
    private final AtomicBoolean paused = new AtomicBoolean();

    /** @param settings never null; nothing is armed unless {@code settings.enabled()} */
    public FaultPoints(FaultInjectionProperties settings) {
        this.settings = settings;
    }

    /** No point armed. */
    public static FaultPoints off() {
        return new FaultPoints(FaultInjectionProperties.off());
    }

    /** Whether reaching {@code point} would halt the JVM. */
    public boolean crashesAt(String point) {
        return settings.enabled() && settings.crashAt().equals(point);
    }

    /** Whether reaching {@code point} would stall the first worker to get there. */
    public boolean pausesAt(String point) {
        return settings.enabled() && settings.pauseAt().equals(point);
    }

    /** Halts the JVM (exit status 137) or stalls this thread when {@code point} is armed; otherwise nothing. */
    public void reach(String point) {
        if (crashesAt(point)) {
            log.warn("fault injection: crash point '{}' reached, halting the JVM", point);
            Runtime.getRuntime().halt(137);
        }
        if (pausesAt(point) && paused.compareAndSet(false, true)) {
            log.warn("fault injection: pause point '{}' reached, stalling this worker for {}", point, settings.pauseFor());
            try {
                Thread.sleep(settings.pauseFor().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            log.warn("fault injection: pause point '{}', resuming", point);
        }
    }
}
