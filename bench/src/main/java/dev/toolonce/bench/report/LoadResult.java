package dev.toolonce.bench.report;

import java.util.List;

/**
 * The offered-load ladder through the agent outbox.
 *
 * @param steps           one per offered load, in the order run
 * @param kneePerSecond   the first offered load where achieved &lt; 95 % of offered or p99 &gt; 250 ms; null
 *                        when every load was sustained
 * @param kneeReason      why that load is the knee; null without a knee
 */
public record LoadResult(List<LoadStepResult> steps, Double kneePerSecond, String kneeReason) {
}
