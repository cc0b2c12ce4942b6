package dev.toolonce.bench.report;

import dev.toolonce.bench.stats.LatencySummary;

/**
 * The commit probe: the ceiling of this database for the agent's transaction shape.
 *
 * @param clients          closed-loop clients
 * @param seconds          how long they ran
 * @param commits          transactions committed
 * @param commitsPerSecond the ceiling
 * @param commitLatency    publish + commit, per transaction
 */
public record CommitResult(int clients, double seconds, long commits, double commitsPerSecond,
                           LatencySummary commitLatency) {
}
