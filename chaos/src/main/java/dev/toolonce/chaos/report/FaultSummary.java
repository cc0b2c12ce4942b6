package dev.toolonce.chaos.report;

import dev.toolonce.chaos.oracle.RoundResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One fault's rounds added up. Recovery times are injection → first result of an intent sent after it.
 *
 * @param missedRounds    rounds whose fault never fired: each one fails the experiment
 * @param unjudgedRounds  rounds the oracle could not judge: each one fails the experiment
 * @param meters       the services' ToolOnce counters and timer counts that moved during the rounds (series →
 *                     growth, summed over services; lower bounds, see {@code MeterWatch})
 */
public record FaultSummary(String fault, String description, int rounds, long injections, int missedRounds,
                           int unjudgedRounds,
                           long calls, long sagas, long messages, long absorbed, long duplicates, long lost, long stuck,
                           long inDoubt, long unknown, long reconciled, long review, long compensations,
                           long compensated, long conflictsSent,
                           long conflictsRefused, Long recoveryP50, Long recoveryP95, Long recoveryP99,
                           List<Long> recoveryMillis, Map<String, Double> meters) {

    public static FaultSummary of(String fault, String description, List<RoundResult> rounds,
                                  Map<String, Double> meters) {
        List<Long> recovery = new ArrayList<>();
        rounds.forEach(r -> recovery.addAll(r.recoveryMillis()));
        recovery.sort(Long::compare);
        return new FaultSummary(fault, description, rounds.size(),
                sum(rounds, RoundResult::injections), (int) rounds.stream().filter(r -> r.injections() == 0).count(),
                (int) rounds.stream().filter(r -> !r.judged()).count(),
                sum(rounds, RoundResult::calls), sum(rounds, RoundResult::sagas),
                sum(rounds, RoundResult::messages), sum(rounds, RoundResult::absorbed),
                sum(rounds, RoundResult::duplicates), sum(rounds, RoundResult::lost), sum(rounds, RoundResult::stuck),
                sum(rounds, RoundResult::inDoubt), sum(rounds, RoundResult::unknown),
                sum(rounds, RoundResult::reconciled), sum(rounds, RoundResult::review),
                sum(rounds, RoundResult::compensations), sum(rounds, RoundResult::compensated),
                sum(rounds, RoundResult::conflictsSent), sum(rounds, RoundResult::conflictsRefused),
                percentile(recovery, 50), percentile(recovery, 95), percentile(recovery, 99), List.copyOf(recovery),
                Map.copyOf(meters));
    }

    private static long sum(List<RoundResult> rounds, java.util.function.ToLongFunction<RoundResult> f) {
        return rounds.stream().mapToLong(f).sum();
    }

    /** Nearest-rank percentile of sorted values; null when there are none. */
    static Long percentile(List<Long> sorted, int p) {
        if (sorted.isEmpty()) {
            return null;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }
}
