package dev.toolonce.bench.report;

/**
 * A backlog drain: rows inserted as fast as possible in big transactions while the relay runs.
 *
 * @param events          rows inserted
 * @param insertSeconds   from the first insert to the last commit
 * @param drainSeconds    from the first insert until the bench consumer had seen every row
 * @param eventsPerSecond {@code events / drainSeconds}
 * @param received        distinct rows seen
 * @param lost            rows not seen within the timeout
 */
public record BacklogResult(long events, double insertSeconds, double drainSeconds, double eventsPerSecond,
                            long received, long lost) {
}
