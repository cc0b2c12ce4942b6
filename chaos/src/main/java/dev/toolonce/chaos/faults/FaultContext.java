package dev.toolonce.chaos.faults;

import dev.toolonce.chaos.stack.ChaosStack;
import dev.toolonce.chaos.workload.ResultsWatch;
import dev.toolonce.chaos.workload.Workload;

/**
 * What a fault may touch: the stack's processes, the running workload, the results seen so far, the sandbox.
 *
 * @param round the round's number from 1, to vary the victim (e.g. which tool loses a response)
 */
public record FaultContext(ChaosStack stack, Workload workload, ResultsWatch watch, Sandbox sandbox, int round) {
}
