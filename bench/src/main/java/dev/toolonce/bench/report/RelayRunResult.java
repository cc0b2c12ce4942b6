package dev.toolonce.bench.report;

import dev.toolonce.bench.stats.LatencySummary;
import java.util.List;

/**
 * The relay alone at one offered rate: rows inserted into {@code agent.outbox_event} for the bench topic.
 *
 * @param offeredPerSecond rate asked of the writers
 * @param seconds          how long they wrote
 * @param sent             rows committed
 * @param sentPerSecond    rate the writers achieved
 * @param received         distinct rows the bench consumer saw on the bench topic
 * @param lost             rows committed but not seen within the timeout
 * @param relayPublished   growth of the relay's {@code published} counter during the run (all sources)
 * @param relayLatency     the relay's own commit→ack figures ({@code GET /relay/stats}, after a reset)
 * @param consumerLatency  client commit return → record received by the bench consumer
 * @param consumerCdf      CDF of {@code consumerLatency}: points {@code [ms, fraction]}
 */
public record RelayRunResult(double offeredPerSecond, double seconds, long sent, double sentPerSecond, long received,
                             long lost, long relayPublished, LatencySummary relayLatency,
                             LatencySummary consumerLatency, List<double[]> consumerCdf) {
}
