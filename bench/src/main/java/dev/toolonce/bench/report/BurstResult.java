package dev.toolonce.bench.report;

import dev.toolonce.bench.stats.LatencySummary;
import java.util.List;
import java.util.Map;

/**
 * The end-to-end burst: intents of the bench's tool produced straight to the intents topic, every result
 * awaited on the results topic.
 *
 * @param intents        intents sent
 * @param results        intents answered (first result per intent)
 * @param lost           intents without any result within the timeout
 * @param duplicates     extra results for an already answered intent
 * @param statuses       first results by status
 * @param seconds        first send → last result
 * @param callsPerSecond {@code results / seconds}
 * @param latency        send → first result received by the bench
 * @param cdf            CDF of {@code latency}: points {@code [ms, fraction]}
 * @param resources      CPU and memory of each component during the burst
 * @param relayLatency   the relay's own commit→ack latency over the burst (the executor's result events,
 *                       relayed while the executor runs flat out); null when the relay's figures were unreadable
 * @param statements     the SQL statements and transactions per answered call meanwhile
 */
public record BurstResult(long intents, long results, long lost, long duplicates, Map<String, Long> statuses,
                          double seconds, double callsPerSecond, LatencySummary latency, List<double[]> cdf,
                          List<ResourceUse> resources, LatencySummary relayLatency, StatementUse statements) {
}
