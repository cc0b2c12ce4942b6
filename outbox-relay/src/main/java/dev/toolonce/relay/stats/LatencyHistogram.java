package dev.toolonce.relay.stats;

/**
 * The resettable commit→ack window behind {@code GET /relay/stats} (see {@link RelayStats}: Micrometer
 * timers cannot be reset, so Prometheus gets a Micrometer timer and {@code /relay/stats} this).
 *
 * <p>A fixed-size log-linear histogram of latencies in microseconds: exact below 64 µs, then 32
 * buckets per power of two (relative error under 3.2 %), up to about 12 days; larger values
 * land in the last bucket. About 10 KB, no allocation per value. Thread-safe (synchronized:
 * recording is one array increment, far cheaper than the Kafka ack it measures).
 */
public final class LatencyHistogram {

    private static final int SUB_BITS = 5;
    private static final int SUB = 1 << SUB_BITS;             // 32 buckets per power of two
    private static final int MAX_EXPONENT = 40 - SUB_BITS;     // up to 2^40 µs
    private static final int BUCKETS = 2 * SUB + MAX_EXPONENT * SUB;

    private final long[] counts = new long[BUCKETS];
    private long count;
    private long maxMicros;

    /** Records one latency; negative values (clock steps) count as zero. */
    public synchronized void record(long micros) {
        long v = Math.max(0, micros);
        counts[index(v)]++;
        count++;
        maxMicros = Math.max(maxMicros, v);
    }

    /** Forgets every recorded value. */
    public synchronized void reset() {
        java.util.Arrays.fill(counts, 0);
        count = 0;
        maxMicros = 0;
    }

    /** A consistent copy of the current figures. */
    public synchronized Snapshot snapshot() {
        return new Snapshot(count, percentile(0.50), percentile(0.95), percentile(0.99), maxMicros);
    }

    /**
     * The value below or at which {@code fraction} of the values lie, as the middle of its
     * bucket (never above the largest value recorded); 0 when empty.
     */
    synchronized long percentile(double fraction) {
        if (count == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(fraction * count));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.min(maxMicros, (lowerBound(i) + upperBound(i)) / 2);
            }
        }
        return maxMicros;
    }

    static int index(long v) {
        if (v < 2 * SUB) {
            return (int) v;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(v) - SUB_BITS; // >= 1
        if (exponent > MAX_EXPONENT) {
            return BUCKETS - 1;
        }
        int mantissa = (int) (v >>> exponent);                      // in [SUB, 2*SUB)
        return 2 * SUB + (exponent - 1) * SUB + (mantissa - SUB);
    }

    static long lowerBound(int index) {
        if (index < 2 * SUB) {
            return index;
        }
        int exponent = (index - 2 * SUB) / SUB + 1;
        long mantissa = SUB + (index - 2 * SUB) % SUB;
        return mantissa << exponent;
    }

    static long upperBound(int index) {
        if (index < 2 * SUB) {
            return index;
        }
        int exponent = (index - 2 * SUB) / SUB + 1;
        return lowerBound(index) + (1L << exponent) - 1;
    }

    /**
     * Figures of a histogram, in microseconds.
     *
     * @param count number of values
     * @param p50   median
     * @param p95   95th percentile
     * @param p99   99th percentile
     * @param max   largest value (exact)
     */
    public record Snapshot(long count, long p50, long p95, long p99, long max) {
    }
}
