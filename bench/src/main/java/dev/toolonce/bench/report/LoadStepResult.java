package dev.toolonce.bench.report;

import dev.toolonce.bench.stats.LatencySummary;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One offered load through the agent outbox ({@code IntentPublisher}: step + intent per transaction).
 *
 * @param offeredPerSecond  calls per second asked of the writers
 * @param seconds           how long they wrote
 * @param sent              intents committed
 * @param sentPerSecond     rate the writers achieved
 * @param completed         steps the result consumer updated
 * @param lost              steps still {@code PENDING} after the timeout
 * @param notCommitted      completed steps whose status is not {@code COMMITTED}
 * @param achievedPerSecond {@code completed} / (first commit → last step update)
 * @param latency           intent commit (client) → {@code agent_step.updated_at} (database clock, same host)
 * @param cdf               CDF of {@code latency}: points {@code [ms, fraction]}
 * @param hops              the same calls' latency by segment; null when the executor's ledger could not be read
 * @param resources         CPU and memory of every component of the stack from the first write to the last answer,
 *                          per answered call as in the burst ({@link ResourceUse}); the bench's own agent is not among
 *                          them, but the agent's transactions are in {@code postgres}
 * @param statements        the SQL of the same interval per answered call, the agent's transactions included; null
 *                          when not measured
 */
public record LoadStepResult(double offeredPerSecond, double seconds, long sent, double sentPerSecond, long completed,
                             long lost, long notCommitted, double achievedPerSecond, LatencySummary latency,
                             List<double[]> cdf, Hops hops, List<ResourceUse> resources, StatementUse statements) {

    /** CPU-ms per answered call summed over the components (the walsenders are within postgres); null if unmeasured. */
    public Double cpuMillisPerCall() {
        return ResourceUse.totalPerCall(resources);
    }

    /** What one answered call of the load cost: CPU by component, statements and commits (the agent's included). */
    public String costLine() {
        StringBuilder line = new StringBuilder("per answered call: ");
        Double total = cpuMillisPerCall();
        line.append(total == null ? "CPU not measured" : String.format(Locale.ROOT, "%.2f CPU-ms", total));
        if (total != null) {
            line.append(resources.stream().filter(u -> u.cpuSecondsPer1000() != null)
                    .map(u -> String.format(Locale.ROOT, "%s %.2f", u.isPart() ? "of which walsenders" : u.component(),
                            u.cpuSecondsPer1000()))
                    .collect(Collectors.joining(", ", " (", ")")));
        }
        if (statements != null && statements.note() == null) {
            line.append(String.format(Locale.ROOT, "; %.1f statements, %.2f commits", statements.statementsPerCall(),
                    statements.commitsPerCall()));
        }
        return line.toString();
    }
}
