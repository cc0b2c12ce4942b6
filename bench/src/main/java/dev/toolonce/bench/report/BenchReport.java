package dev.toolonce.bench.report;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Everything one bench run measured; a phase not run is null. Written as JSON by {@code --json} and read
 * back by nothing but people and the smoke test.
 *
 * @param runId     the run's id; the tenant is {@code bench-<runId>}
 * @param startedAt ISO-8601 instant
 * @param settings  the options the run used, as text
 * @param cores     available processors on the bench's machine
 * @param warmup    the untimed warm-up before the first timed phase; null when it did not run
 * @param commit    the commit probe (the ceiling)
 * @param relay     the relay alone
 * @param burst     the end-to-end burst, with resources
 * @param loads     the offered-load ladder through the agent outbox
 * @param awaitable the awaitable call's happy path
 */
public record BenchReport(String runId, String startedAt, String settings, int cores, WarmupResult warmup,
                          CommitResult commit,
                          RelayResult relay, BurstResult burst, LoadResult loads, AwaitableResult awaitable) {

    /** Calls or events that went in and never came out, across all phases: must be 0. */
    @JsonProperty("lost")
    public long lost() {
        long lost = 0;
        if (relay != null) {
            lost += relay.runs().stream().mapToLong(RelayRunResult::lost).sum();
            lost += relay.backlog() == null ? 0 : relay.backlog().lost();
        }
        lost += burst == null ? 0 : burst.lost();
        lost += loads == null ? 0 : loads.steps().stream().mapToLong(LoadStepResult::lost).sum();
        lost += awaitable == null ? 0 : awaitable.unanswered();
        return lost;
    }
}
