package dev.toolonce.bench.report;

import dev.toolonce.bench.stats.LatencySummary;
import java.util.List;

/**
 * One offered load through the agent outbox ({@code IntentPublisher}: step + intent per transaction).
 *
 * @param offeredPerSecond  calls per second asked of the writers
 * @param seconds           how long they wrote
 * @param sent              intents committed
 * @param sentPerSecond     rate the writers achieved
 * @param completed         steps the result consumer updated
 * @param lost              steps still {@code PENDING} after the timeout
 * @param notCommitted      completed steps whose status is not {@code COMMITTED}
 * @param achievedPerSecond {@code completed} / (first commit → last step update)
 * @param latency           intent commit (client) → {@code agent_step.updated_at} (database clock, same host)
 * @param cdf               CDF of {@code latency}: points {@code [ms, fraction]}
 * @param hops              the same calls' latency by segment; null when the executor's ledger could not be read
 */
public record LoadStepResult(double offeredPerSecond, double seconds, long sent, double sentPerSecond, long completed,
                             long lost, long notCommitted, double achievedPerSecond, LatencySummary latency,
                             List<double[]> cdf, Hops hops) {
}
