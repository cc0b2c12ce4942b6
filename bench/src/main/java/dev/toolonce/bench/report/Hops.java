package dev.toolonce.bench.report;

import dev.toolonce.bench.stats.LatencySummary;

/**
 * Where one load's latency went, from the timestamps the agent's step and the executor's call carry (one database
 * clock): each segment's percentiles over the load's calls.
 *
 * @param toExecutor step written (agent transaction) → call planned: the agent's commit, the relay, Kafka, intake
 * @param claim      call planned → started: the intake's commit and the dispatcher's claim; about zero for a call
 *                   intake's own plan insert claimed (docs/protocol.md §6, "Claimed by intake")
 * @param run        started → terminal: the commit of the claim (or of intake's transaction), the tool's HTTP call,
 *                   the completion's group commit
 * @param back       terminal → step answered: the completion's commit, the relay, Kafka, the result consumer
 */
public record Hops(LatencySummary toExecutor, LatencySummary claim, LatencySummary run, LatencySummary back) {
}
