package dev.toolonce.bench.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Every latency of one run, kept exactly (a run holds at most a few hundred thousand values), so that
 * percentiles and the CDF are computed from the values themselves rather than from buckets. Values are
 * microseconds; negative values (two clocks a hair apart) count as zero. Thread-safe.
 */
public final class Latencies {
    private long[] values = new long[1024];
    private int size;

    /** Adds one latency in microseconds. */
    public synchronized void add(long micros) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = Math.max(0, micros);
    }

    public synchronized int count() {
        return size;
    }

    /** Percentiles in milliseconds; all zero when empty. */
    public LatencySummary summary() {
        long[] sorted = sorted();
        return new LatencySummary(sorted.length, ms(rank(sorted, 0.50)), ms(rank(sorted, 0.95)),
                ms(rank(sorted, 0.99)), ms(sorted.length == 0 ? 0 : sorted[sorted.length - 1]));
    }

    /**
     * The empirical CDF at {@code points} evenly spaced fractions (plus the maximum), for charts.
     *
     * @return points {@code [latency ms, fraction]}, ascending; empty when there are no values
     */
    public List<double[]> cdf(int points) {
        long[] sorted = sorted();
        List<double[]> cdf = new ArrayList<>();
        if (sorted.length == 0) {
            return cdf;
        }
        for (int i = 1; i <= points; i++) {
            double fraction = (double) i / points;
            cdf.add(new double[] {ms(rank(sorted, fraction)), fraction});
        }
        return cdf;
    }

    private synchronized long[] sorted() {
        long[] copy = Arrays.copyOf(values, size);
        Arrays.sort(copy);
        return copy;
    }

    /** Nearest-rank percentile: the smallest value with at least {@code fraction} of the values at or below it. */
    private static long rank(long[] sorted, double fraction) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(fraction * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
    }

    private static double ms(long micros) {
        return Math.round(micros / 10.0) / 100.0;
    }
}
