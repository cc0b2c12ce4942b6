package dev.toolonce.chaos.report;

import dev.toolonce.chaos.oracle.RoundResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole experiment: per fault, per round, the totals and the overall rates.
 *
 * @param mode                      {@code toolonce} or {@code unsafe-baseline}
 * @param duplicateSideEffectRate   duplicate applications / calls
 * @param reconciliationSuccessRate reconciliations that decided / unknown outcomes (null without unknowns)
 * @param idempotencyConflictRate   conflicting messages / messages
 * @param conflictRefusalRate       conflicts answered IDEMPOTENCY_PARAMETER_MISMATCH / conflicts (null without)
 * @param manualRecoveryRate        calls left in review / calls
 * @param compensationSuccessRate   compensations that reached COMPENSATED / compensations that ended (null without)
 * @param problems                  why the experiment failed; empty when it passed
 */
public record ChaosReport(String mode, String runId, int perFault, List<FaultSummary> faults,
                          List<RoundResult> rounds, long injections, long calls, long sagas, long messages,
                          long absorbed,
                          long duplicates, long lost, long stuck, long inDoubt, long unknown, long reconciled,
                          long review, double duplicateSideEffectRate, Double reconciliationSuccessRate,
                          double idempotencyConflictRate, Double conflictRefusalRate, double manualRecoveryRate,
                          Double compensationSuccessRate,
                          long seconds, List<String> problems) {

    public static ChaosReport of(String mode, String runId, int perFault, List<FaultSummary> faults,
                                 List<RoundResult> rounds, long seconds) {
        long calls = faults.stream().mapToLong(FaultSummary::calls).sum();
        long messages = faults.stream().mapToLong(FaultSummary::messages).sum();
        long duplicates = faults.stream().mapToLong(FaultSummary::duplicates).sum();
        long lost = faults.stream().mapToLong(FaultSummary::lost).sum();
        long stuck = faults.stream().mapToLong(FaultSummary::stuck).sum();
        long unknown = faults.stream().mapToLong(FaultSummary::unknown).sum();
        long reconciled = faults.stream().mapToLong(FaultSummary::reconciled).sum();
        long review = faults.stream().mapToLong(FaultSummary::review).sum();
        long conflicts = faults.stream().mapToLong(FaultSummary::conflictsSent).sum();
        long refused = faults.stream().mapToLong(FaultSummary::conflictsRefused).sum();
        long compensations = faults.stream().mapToLong(FaultSummary::compensations).sum();
        long compensated = faults.stream().mapToLong(FaultSummary::compensated).sum();
        boolean baseline = "unsafe-baseline".equals(mode);
        List<String> problems = new ArrayList<>();
        for (FaultSummary f : faults) {
            if (f.missedRounds() > 0) {
                problems.add(f.fault() + ": the fault never fired in " + f.missedRounds() + " of " + f.rounds() + " rounds");
            }
            if (f.unjudgedRounds() > 0) {
                problems.add(f.fault() + ": " + f.unjudgedRounds() + " of " + f.rounds() + " rounds could not be judged");
            }
        }
        if (!baseline) {
            if (duplicates > 0) {
                problems.add(duplicates + " duplicate side effects");
            }
            if (lost > 0) {
                problems.add(lost + " lost calls");
            }
            if (stuck > 0) {
                problems.add(stuck + " stuck calls or sagas");
            }
        } else if (duplicates == 0) {
            problems.add("the unsafe baseline showed no duplicate side effect: the faults were not sharp enough");
        }
        return new ChaosReport(mode, runId, perFault, faults, rounds,
                faults.stream().mapToLong(FaultSummary::injections).sum(), calls,
                faults.stream().mapToLong(FaultSummary::sagas).sum(), messages,
                faults.stream().mapToLong(FaultSummary::absorbed).sum(), duplicates, lost, stuck,
                faults.stream().mapToLong(FaultSummary::inDoubt).sum(), unknown, reconciled, review,
                ratio(duplicates, calls), unknown == 0 ? null : ratio(reconciled, unknown), ratio(conflicts, messages),
                conflicts == 0 ? null : ratio(refused, conflicts), ratio(review, calls),
                compensations == 0 ? null : ratio(compensated, compensations), seconds, List.copyOf(problems));
    }

    public boolean passed() {
        return problems.isEmpty();
    }

    private static double ratio(long a, long b) {
        return b == 0 ? 0 : (double) a / b;
    }
}
