package dev.toolonce.demo;

import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolResult;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * The demo's verdict, computed from the sandbox ledger (effects), the results topic (answers) and the
 * executor's ledger (calls left in a non-final state) — never from the demo's own counters. {@code stuck} also
 * counts sagas neither final nor in review; their effects carry the run's opIds, so duplicates among them count.
 */
public record DemoReport(int intents, int answered, long sideEffects, long duplicateSideEffects, int lost,
                         long needsReview, long stuck, long conflictsRejected, int conflicts, long replayed,
                         long malformed, long deadLettered, Map<String, long[]> perTool, JsonNode relayStats,
                         JsonNode injected, Recovery recovery, Duration elapsed, Sagas.Summary sagas) {

    /** True when every intent was answered once-effectively and nothing is stuck. */
    public boolean clean() {
        return duplicateSideEffects == 0 && lost == 0 && stuck == 0 && conflictsRejected == conflicts
                && deadLettered == malformed;
    }

    static DemoReport judge(DemoConfig config, Workload w, Map<String, Workload.Planned> sent,
                            ResultCollector results, SandboxLedger ledger, JsonNode injected, Duration elapsed,
                            Sagas.Summary sagas) throws Exception {
        List<SandboxLedger.Effect> effects = ledger.effects(config.sandboxUrl(), w.run + "-op-");
        Map<String, Long> effectsPerOp = effects.stream()
                .collect(Collectors.groupingBy(SandboxLedger.Effect::opId, Collectors.summingLong(SandboxLedger.Effect::count)));
        long sideEffects = effectsPerOp.values().stream().mapToLong(Long::longValue).sum();
        long duplicates = effectsPerOp.values().stream().mapToLong(c -> Math.max(0, c - 1)).sum();
        int lost = (int) sent.keySet().stream().filter(id -> !results.byIntent.containsKey(id)).count();
        List<ToolResult> first = sent.keySet().stream().filter(results.byIntent::containsKey)
                .map(id -> results.byIntent.get(id).get(0)).toList();
        long needsReview = first.stream().filter(r -> r.status() == ResultStatus.NEEDS_REVIEW)
                .map(ToolResult::recordKey).distinct().count();
        int conflicts = (int) sent.values().stream().filter(p -> p.kind() == Workload.Kind.CONFLICT).count();
        long conflictsRejected = sent.entrySet().stream()
                .filter(e -> e.getValue().kind() == Workload.Kind.CONFLICT || e.getValue().kind() == Workload.Kind.ORIGINAL)
                .filter(e -> results.byIntent.containsKey(e.getKey()))
                .filter(e -> mismatch(results.byIntent.get(e.getKey()).get(0)))
                .count();
        long replayed = first.stream().filter(ToolResult::replayed).count();
        Map<String, long[]> perTool = perTool(first, effects);
        return new DemoReport(sent.size(), sent.size() - lost, sideEffects, duplicates, lost, needsReview,
                stuck(config, w.tenant) + sagas.open(), conflictsRejected, conflicts, replayed, w.malformed.size(),
                results.deadLettered, perTool, ledger.get(config.relayUrl() + "/relay/stats", config.authorization()), injected,
                Recovery.read(config.pgUrl(), w.tenant), elapsed, sagas);
    }

    private static boolean mismatch(ToolResult r) {
        return r.status() == ResultStatus.REJECTED && r.error() != null
                && "IDEMPOTENCY_PARAMETER_MISMATCH".equals(r.error().code());
    }

    /** Per tool: answers, committed, rejected, replayed, effects, requests at the tool. */
    private static Map<String, long[]> perTool(List<ToolResult> first, List<SandboxLedger.Effect> effects) {
        Map<String, long[]> out = new TreeMap<>();
        for (ToolResult r : first) {
            long[] row = out.computeIfAbsent(r.tool(), k -> new long[6]);
            row[0]++;
            row[1] += r.status() == ResultStatus.COMMITTED ? 1 : 0;
            row[2] += r.status() == ResultStatus.REJECTED ? 1 : 0;
            row[3] += r.replayed() ? 1 : 0;
        }
        for (SandboxLedger.Effect e : effects) {
            long[] row = out.computeIfAbsent(e.tool(), k -> new long[6]);
            row[4] += e.count();
            row[5] += e.requests();
        }
        return out;
    }

    /** Calls of this run that the executor's ledger still holds in a state with no final answer. */
    private static long stuck(DemoConfig config, String tenant) throws Exception {
        try (Connection c = DriverManager.getConnection(config.pgUrl(), "postgres", "");
             PreparedStatement ps = c.prepareStatement("""
                     SELECT count(*) FROM executor.tool_call c
                      WHERE c.tenant_id = ? AND c.state NOT IN ('COMMITTED', 'FAILED_FINAL', 'COMPENSATED', 'NEEDS_REVIEW')
                        -- an original whose compensation is in review waits for a human, as does a compensation
                        -- held for an original in review (docs/protocol.md §17): asked, not stuck
                        AND NOT (c.state = 'COMPENSATING' AND EXISTS (
                                SELECT 1 FROM executor.tool_call r WHERE r.tenant_id = c.tenant_id AND r.tool = c.tool
                                   AND r.operation = c.operation || '.compensate'
                                   AND r.idempotency_key = c.idempotency_key AND r.state = 'NEEDS_REVIEW'))
                        AND NOT (c.state = 'PLANNED' AND c.held AND EXISTS (
                                SELECT 1 FROM executor.tool_call o WHERE o.tenant_id = c.tenant_id AND o.tool = c.tool
                                   AND o.operation || '.compensate' = c.operation
                                   AND o.idempotency_key = c.idempotency_key AND o.state = 'NEEDS_REVIEW'))
                     """)) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    void print(PrintStream out) {
        out.println();
        out.printf("%-10s %8s %10s %9s %9s %8s %9s%n", "tool", "answers", "committed", "rejected", "replayed",
                "effects", "requests");
        perTool.forEach((tool, r) -> out.printf("%-10s %8d %10d %9d %9d %8d %9d%n", tool, r[0], r[1], r[2], r[3], r[4], r[5]));
        JsonNode lat = relayStats.path("latencyMs");
        out.printf("%nconflicts rejected with IDEMPOTENCY_PARAMETER_MISMATCH: %d of %d sent%n", conflictsRejected, conflicts);
        out.printf("replayed answers: %d; malformed records sent: %d, found on the DLQ: %d%n", replayed, malformed,
                deadLettered);
        out.printf("faults injected at the sandbox: %s%n", injected);
        out.printf("unknown outcomes: %d, reconciled automatically: %d, needs_review: %d, RSR %.2f%n",
                recovery.unknown(), recovery.reconciled(), recovery.toReview(),
                recovery.unknown() == 0 ? 1.0 : (double) recovery.reconciled() / recovery.unknown());
        out.printf("recovery time UNKNOWN -> final or review: p50 %.0f ms, p95 %.0f ms, p99 %.0f ms%n",
                recovery.percentile(50), recovery.percentile(95), recovery.percentile(99));
        out.printf("relay commit->Kafka latency: p50 %s ms, p99 %s ms (max %s ms, %s events)%n",
                lat.path("p50").asString("?"), lat.path("p99").asString("?"), lat.path("max").asString("?"),
                lat.path("count").asString("?"));
        out.printf("sagas=%d by final state %s (still running: %d)%n", sagas.sagas(), sagas.byState(), sagas.open());
        out.printf("compensations started=%d committed=%d, compensation success rate %.2f%n",
                sagas.compensationsStarted(), sagas.compensationsCommitted(), sagas.compensationSuccessRate());
        out.printf("dry runs of the charges=%d, refused=%d (each refused before anything was charged)%n",
                sagas.dryRuns(), sagas.dryRunsRefused());
        out.printf("elapsed: %.1f s%n", elapsed.toMillis() / 1000.0);
        out.printf("intents=%d results=%d side_effects=%d duplicate_side_effects=%d lost=%d needs_review=%d stuck=%d%n",
                intents, answered, sideEffects, duplicateSideEffects, lost, needsReview, stuck);
    }
}
