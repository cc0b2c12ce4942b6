package dev.toolonce.chaos.oracle;

import java.util.List;
import java.util.Map;

/**
 * The verdict on one round after quiescence, from ground truth: the sandbox ledger counted by the workload's own
 * opIds, the answers on the results topic, the agent's steps, and (for stuck and for the diagnostic counts only)
 * the executor's ledger.
 *
 * @param injections       faults that fired in this round
 * @param calls            distinct opIds the round sent as single calls
 * @param sagas            tasks of the round in the agent schema (their steps' effects count at the sandbox too)
 * @param messages         intent messages sent (retries, conflicts and concurrent deliveries each count)
 * @param absorbed         deliveries beyond one per opId (redeliveries, forced duplicates, client retries,
 *                         concurrent deliveries, conflicts) that had to be absorbed without a second effect
 * @param duplicates       applications beyond the first of one opId at the sandbox: must be 0
 * @param lost             valid messages without any answer on the results topic, plus agent steps still pending
 * @param stuck            executor calls, and tasks, neither final nor in review after quiescence
 * @param inDoubt          messages whose hand-over failed ambiguously and got no answer (not counted as lost)
 * @param unknown          moves to UNKNOWN (an outcome the executor could not know)
 * @param reconciled       reconciliations that decided (found, or confirmed absent)
 * @param review           calls left in NEEDS_REVIEW
 * @param compensations    calls that left COMPENSATING (their compensation ended, either way)
 * @param compensated      of those, the ones that reached COMPENSATED
 * @param conflictsSent    same-key different-payload messages sent
 * @param conflictsRefused of those, answered REJECTED IDEMPOTENCY_PARAMETER_MISMATCH
 * @param recoveryMillis   per fired fault: injection → first result of an intent sent after it
 * @param quiesceMillis    end of the round's workload → quiescence
 * @param statuses         answers by status
 * @param judgingFailure   why the round could not be judged (its counts are then zero); null when it was judged
 */
public record RoundResult(String fault, int round, String tenant, int injections, String note, long calls,
                          long sagas, long messages, long absorbed, long duplicates, long lost, long stuck, long inDoubt,
                          long unknown, long reconciled, long review, long compensations, long compensated,
                          long conflictsSent, long conflictsRefused,
                          List<Long> recoveryMillis, long quiesceMillis, Map<String, Long> statuses,
                          String judgingFailure) {

    /**
     * A round whose fault was injected but whose judging failed (the oracle's reads broke every time): it proves
     * nothing either way, so it fails the experiment without ending it.
     */
    public static RoundResult notJudged(String fault, int round, String tenant, int injections, String note,
                                        String why) {
        return new RoundResult(fault, round, tenant, injections, note, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                List.of(), 0, Map.of(), why);
    }

    public boolean judged() {
        return judgingFailure == null;
    }

    public boolean clean() {
        return judged() && duplicates == 0 && lost == 0 && stuck == 0;
    }
}
