package dev.toolonce.bench.report;

import dev.toolonce.bench.stats.LatencySummary;

/**
 * The awaitable call's happy path (docs/agent-calls.md §2): calls made one after the other through {@code ToolCalls},
 * each answered through the database, its result applied by the agent side's consumer (inbox-consumer, another
 * process), so each wait ends at the next poll.
 *
 * @param calls          calls made
 * @param pollMillis     the waits' poll interval
 * @param callsPerSecond calls answered per second, one at a time
 * @param latency        call() → answer, ms
 * @param unanswered     calls still pending after the timeout: counted as lost
 */
public record AwaitableResult(int calls, long pollMillis, double callsPerSecond, LatencySummary latency,
                              long unanswered) {
}
