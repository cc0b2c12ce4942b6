package dev.toolonce.core.retry;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with full jitter and a cap (docs/protocol.md §12): attempt n waits a uniformly random
 * time in {@code [0, min(cap, base * 2^(n-1))]}, but never less than the tool's {@code Retry-After}.
 *
 * @param base        first backoff; positive
 * @param cap         longest backoff; at least {@code base}
 * @param maxAttempts attempts allowed in all; at least 1
 */
public record RetryPolicy(Duration base, Duration cap, int maxAttempts) {

    public RetryPolicy {
        if (base.isNegative() || base.isZero() || cap.compareTo(base) < 0 || maxAttempts < 1) {
            throw new IllegalArgumentException("retry policy needs 0 < base <= cap and maxAttempts >= 1, was "
                    + base + ", " + cap + ", " + maxAttempts);
        }
    }

    /** Whether another attempt is allowed after {@code attemptsSoFar}. */
    public boolean allowsAnother(int attemptsSoFar) {
        return attemptsSoFar < maxAttempts;
    }

    /**
     * @param attemptsSoFar attempts already made (≥ 1)
     * @param retryAfter    the tool's own minimum wait; nullable
     * @param random        uniform source in [0, 1)
     */
    public Duration delay(int attemptsSoFar, Duration retryAfter, DoubleSupplier random) {
        int exponent = Math.min(Math.max(attemptsSoFar - 1, 0), 30);
        long ceiling = Math.min(cap.toMillis(), base.toMillis() << exponent);
        Duration jittered = Duration.ofMillis((long) (random.getAsDouble() * ceiling));
        return retryAfter != null && retryAfter.compareTo(jittered) > 0 ? retryAfter : jittered;
    }
}
