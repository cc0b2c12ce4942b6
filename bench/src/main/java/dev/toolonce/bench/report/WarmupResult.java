package dev.toolonce.bench.report;

import java.util.List;

/**
 * The untimed warm-up before the first timed phase: nothing of it enters any figure.
 *
 * @param intents         intents sent straight to Kafka first
 * @param loadPerSecond   calls per second then offered through the agent outbox
 * @param loadSeconds     for how long
 * @param unanswered      warm-up calls with no answer within the timeout (not counted as lost)
 * @param seconds         how long the warm-up took
 * @param burstsPerSecond the rate of each untimed straight-to-Kafka burst, in order: the first of {@code intents},
 *                        then, when the run has a burst, bursts of its size until they settle ({@link #settled})
 */
public record WarmupResult(int intents, double loadPerSecond, long loadSeconds, long unanswered, double seconds,
                           List<Double> burstsPerSecond) {

    /** The most untimed bursts of the timed burst's size the warm-up runs before giving up on settling. */
    public static final int MAX_SETTLING_BURSTS = 4;

    /**
     * Whether the warm-up stopped because its bursts settled, not because it ran out of tries: false only when it ran
     * settling bursts ({@code burstsPerSecond} beyond the first) and they had not settled.
     */
    public boolean settledBursts() {
        return burstsPerSecond == null || burstsPerSecond.size() < 2
                || settled(burstsPerSecond.subList(1, burstsPerSecond.size()));
    }

    /**
     * Whether the untimed bursts so far say the stack is warm: at least two, and the last not more than 5 % faster
     * than the one before it. Each of the five JVMs compiles its hot path over the first hundred thousand calls or so,
     * and a burst measured before that measures how far the compilers got (docs/performance.md, tenth round).
     */
    public static boolean settled(List<Double> rates) {
        int n = rates.size();
        return n >= 2 && rates.get(n - 1) <= rates.get(n - 2) * 1.05;
    }
}
