package dev.toolonce.relay.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code toolonce.fault-injection.*} of the relay: named places in a batch where a fault experiment can stop this
 * JVM dead ({@code Runtime.halt(137)}: no shutdown hooks, no offset flush, what SIGKILL does), so that a kill lands
 * at a chosen step and not wherever a signal happens to arrive. Off by default; naming a point without
 * {@code enabled=true}, or a point that does not exist, refuses to start, so a stray setting can never halt a
 * production relay. The executor has points of its own under the same keys.
 *
 * <p>With {@code arm-file} set, the point stays inert until that file exists: an experiment can start the armed
 * relay, let it take the slots and stream, start its standby, and only then make it halt, so that the halt lands
 * where production has a warm standby (docs/fault-experiment.md §4).
 *
 * @param enabled whether fault injection is on at all (default false)
 * @param crashAt the point where the JVM halts, one of {@link #NAMES}; null or blank for none
 * @param armFile when set, the point halts only once this file exists (checked each time the point is reached);
 *                null to halt the first time it is reached
 */
@ConfigurationProperties("toolonce.fault-injection")
public record RelayCrashPoints(@DefaultValue("false") boolean enabled, String crashAt, Path armFile) {
    /** The changes of a batch were read from the WAL (decoded by Debezium); nothing of it is sent yet. */
    public static final String AFTER_READ = "relay-after-read";
    /** Every record of a batch is acknowledged by Kafka; its position is not yet marked for the offset flush. */
    public static final String AFTER_SEND = "relay-after-send";
    /** Every point's name. */
    public static final List<String> NAMES = List.of(AFTER_READ, AFTER_SEND);

    private static final Logger log = LoggerFactory.getLogger(RelayCrashPoints.class);

    public RelayCrashPoints {
        crashAt = crashAt == null ? "" : crashAt.trim();
        if (!crashAt.isEmpty() && !enabled) {
            throw new IllegalArgumentException("toolonce.fault-injection.crash-at is set to '" + crashAt
                    + "' but toolonce.fault-injection.enabled is not true; crash points are for fault experiments only");
        }
        if (!crashAt.isEmpty() && !NAMES.contains(crashAt)) {
            throw new IllegalArgumentException("toolonce.fault-injection.crash-at of the relay must be one of " + NAMES
                    + ", was '" + crashAt + "'");
        }
        if (armFile != null && !enabled) {
            throw new IllegalArgumentException("toolonce.fault-injection.arm-file is set but "
                    + "toolonce.fault-injection.enabled is not true; crash points are for fault experiments only");
        }
    }

    /** No point armed: what the relay runs with unless an experiment turns it on. */
    public static RelayCrashPoints off() {
        return new RelayCrashPoints(false, null, null);
    }

    /** Halts the JVM with exit status 137 when {@code point} is armed (and its arm file exists); otherwise nothing. */
    public void reach(String point) {
        if (haltsAt(point)) {
            log.warn("fault injection: crash point '{}' reached, halting the JVM", point);
            Runtime.getRuntime().halt(137);
        }
    }

    /** Whether reaching {@code point} now halts the JVM. */
    boolean haltsAt(String point) {
        return enabled && crashAt.equals(point) && (armFile == null || Files.exists(armFile));
    }
}
