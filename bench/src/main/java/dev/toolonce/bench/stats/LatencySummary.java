package dev.toolonce.bench.stats;

/**
 * Latency percentiles of one run, in milliseconds (nearest rank).
 *
 * @param count number of values measured
 * @param p50   median
 * @param p95   95th percentile
 * @param p99   99th percentile
 * @param max   largest value
 */
public record LatencySummary(long count, double p50, double p95, double p99, double max) {
}
