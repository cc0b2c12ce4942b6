package dev.toolonce.executor.execution;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Named places where a fault test can stop this JVM dead ({@code Runtime.halt}: no shutdown hooks, no
 * flush — what SIGKILL does) or pause a worker. Disarmed unless {@code toolonce.executor.crash-at} or
 * {@code toolonce.executor.pause-before-send} is set; production configuration never sets them.
 */
public final class CrashPoints {
    /** After the tool applied the effect and before the outcome is recorded. */
    public static final String AFTER_TOOL_BEFORE_RECORD = "after-tool-before-record";
    /** After the outcome (and result event) is recorded. */
    public static final String AFTER_RECORD = "after-record";

    private static final Logger log = LoggerFactory.getLogger(CrashPoints.class);

    private final String armed;
    private final Duration pauseBeforeSend;

    /** @param armed a point name or null/blank; @param pauseBeforeSend a pause between claim and send, or zero */
    public CrashPoints(String armed, Duration pauseBeforeSend) {
        this.armed = armed == null ? "" : armed.trim();
        this.pauseBeforeSend = pauseBeforeSend == null ? Duration.ZERO : pauseBeforeSend;
    }

    /** Halts the JVM with exit status 137 when {@code point} is the armed one. */
    public void reach(String point) {
        if (armed.equals(point)) {
            log.warn("crash point '{}' reached: halting the JVM", point);
            Runtime.getRuntime().halt(137);
        }
    }

    /** Simulates a worker stalled between its claim and its send (GC pause, SIGSTOP). */
    public void pauseBeforeSend() {
        if (!pauseBeforeSend.isZero()) {
            try {
                Thread.sleep(pauseBeforeSend.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
