package dev.toolonce.core.retry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A per-tool retry budget (docs/protocol.md §12): at most {@code retriesPerWindow} retries of one tool start
 * within any {@code window}, so that a failing provider is not hit by a storm of retries. A retry over
 * budget is not dropped: {@link #reserve} returns how long it must wait for a slot, and the caller
 * schedules it that much later. Thread-safe; time comes from the injected clock.
 */
public final class RetryBudget {
    private final int retriesPerWindow;
    private final Duration window;
    private final Clock clock;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    public RetryBudget(int retriesPerWindow, Duration window, Clock clock) {
        if (retriesPerWindow < 1 || window.isZero() || window.isNegative()) {
            throw new IllegalArgumentException("retry budget needs >= 1 retry per positive window, was "
                    + retriesPerWindow + " per " + window);
        }
        this.retriesPerWindow = retriesPerWindow;
        this.window = window;
        this.clock = clock;
    }

    /**
     * Reserves a retry slot for {@code tool} no earlier than {@code wanted} from now.
     *
     * @return the delay to use: {@code wanted}, or longer when the window's budget is spent
     */
    public Duration reserve(String tool, Duration wanted) {
        Instant at = clock.instant().plus(wanted);
        Instant slot = buckets.computeIfAbsent(tool, t -> new Bucket()).reserve(at, retriesPerWindow, window);
        return Duration.between(clock.instant(), slot).isNegative() ? Duration.ZERO : Duration.between(clock.instant(), slot);
    }

    /** Fixed windows: each holds {@code retriesPerWindow} slots; a full window pushes the retry to the next. */
    private static final class Bucket {
        private Instant windowStart = Instant.EPOCH;
        private int used;

        synchronized Instant reserve(Instant at, int perWindow, Duration window) {
            Instant candidate = at;
            if (!candidate.isBefore(windowStart.plus(window))) {
                windowStart = candidate;
                used = 0;
            } else if (candidate.isBefore(windowStart)) {
                candidate = windowStart;
            }
            if (used >= perWindow) {
                windowStart = windowStart.plus(window);
                used = 0;
                candidate = windowStart;
            }
            used++;
            return candidate;
        }
    }
}
