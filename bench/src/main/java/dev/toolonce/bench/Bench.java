package dev.toolonce.bench;

import dev.toolonce.bench.drive.BenchIntents;
import dev.toolonce.bench.e2e.BurstPhase;
import dev.toolonce.bench.e2e.LoadLadder;
import dev.toolonce.bench.e2e.StackIdle;
import dev.toolonce.bench.probe.CommitProbe;
import dev.toolonce.bench.relay.RelayPhase;
import dev.toolonce.bench.report.BenchReport;
import dev.toolonce.bench.report.BurstResult;
import dev.toolonce.bench.report.CommitResult;
import dev.toolonce.bench.report.LoadResult;
import dev.toolonce.bench.report.RelayResult;
import java.time.Instant;
import java.util.UUID;

/**
 * One bench run against a running stack: the phases the options pick, in order, each started only once the
 * executor has nothing of the bench's tenant in flight. Every run has its own id and tenant
 * ({@code bench-<runId>}), so its idempotency keys are new and nothing is answered from an earlier run.
 */
public final class Bench {
    private Bench() {
    }

    public static BenchReport run(BenchOptions o) throws Exception {
        String runId = UUID.randomUUID().toString().substring(0, 8);
        BenchIntents intents = new BenchIntents("bench-" + runId, o.tool());
        StackIdle idle = new StackIdle(o.target(), intents.tenant());
        String startedAt = Instant.now().toString();
        System.out.printf("bench run %s (tenant %s): %s%n", runId, intents.tenant(), o.describe());

        CommitResult commit = null;
        if (o.phases().contains(Phase.COMMIT)) {
            System.out.printf("[commit] %d clients, one agent_step + one outbox_event per transaction, %d s%n",
                    o.clients(), o.seconds().toSeconds());
            commit = new CommitProbe(o.target(), intents).run(runId, o.clients(), o.seconds());
            System.out.printf("    %.1f commits/s%n", commit.commitsPerSecond());
        }
        RelayResult relay = null;
        if (o.phases().contains(Phase.RELAY)) {
            System.out.println("[relay] rows in agent.outbox_event naming " + RelayPhase.TOPIC);
            relay = new RelayPhase(o.target(), runId, o.timeout()).run(o.relayRates(), o.seconds(), o.backlog());
        }
        BurstResult burst = null;
        if (o.phases().contains(Phase.BURST)) {
            idle.await(o.timeout());
            System.out.printf("[burst] %d %s intents straight to Kafka%n", o.burst(), o.tool());
            burst = new BurstPhase(o.target(), intents).run(o.burst(), o.timeout());
            System.out.printf("    %.1f calls/s, p50 %.1f ms, p99 %.1f ms%n",
                    burst.callsPerSecond(), burst.latency().p50(), burst.latency().p99());
        }
        LoadResult loads = null;
        if (o.phases().contains(Phase.LOADS)) {
            idle.await(o.timeout());
            System.out.println("[loads] offered loads through the agent outbox (IntentPublisher)");
            loads = new LoadLadder(o.target(), intents, runId).run(o.loads(), o.seconds(), o.timeout());
        }
        return new BenchReport(runId, startedAt, o.describe(), Runtime.getRuntime().availableProcessors(),
                commit, relay, burst, loads);
    }
}
