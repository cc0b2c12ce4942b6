package dev.toolonce.executor.faults;

import java.time.Duration;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code toolonce.fault-injection.*}: the crash and pause points of the fault tests ({@link FaultPoints}). Off by
 * default; the points are armed only with {@code toolonce.fault-injection.enabled=true}, and naming a point without
 * it refuses to start, so a stray setting can never halt a production executor.
 *
 * @param enabled  whether fault injection is on at all (default false)
 * @param crashAt  the point where the JVM halts as if killed; null or blank for none
 * @param pauseAt  the point where the first worker to reach it stalls; null or blank for none
 * @param pauseFor how long that worker stalls (default 0s)
 */
@ConfigurationProperties("toolonce.fault-injection")
public record FaultInjectionProperties(
        @DefaultValue("false") boolean enabled,
        String crashAt,
        String pauseAt,
        @DefaultValue("0s") Duration pauseFor) {

    public FaultInjectionProperties {
        crashAt = crashAt == null ? "" : crashAt.trim();
        pauseAt = pauseAt == null ? "" : pauseAt.trim();
        pauseFor = pauseFor == null ? Duration.ZERO : pauseFor;
        check("crash-at", crashAt, enabled);
        check("pause-at", pauseAt, enabled);
    }

    /** Fault injection off: what every service runs with unless a test turns it on. */
    public static FaultInjectionProperties off() {
        return new FaultInjectionProperties(false, null, null, null);
    }

    private static void check(String key, String point, boolean enabled) {
        if (point.isEmpty()) {
            return;
        }
        if (!enabled) {
            throw new IllegalArgumentException("toolonce.fault-injection." + key + " is set to '" + point
                    + "' but toolonce.fault-injection.enabled is not true; fault points are for fault tests only");
        }
        if (!FaultPoints.NAMES.contains(point)) {
            throw new IllegalArgumentException("toolonce.fault-injection." + key + " must be one of "
                    + Set.copyOf(FaultPoints.NAMES) + ", was '" + point + "'");
        }
    }
}
