package dev.toolonce.bench;

import dev.toolonce.bench.drive.BenchIntents;
import dev.toolonce.bench.e2e.AwaitablePhase;
import dev.toolonce.bench.e2e.BurstPhase;
import dev.toolonce.bench.e2e.LoadLadder;
import dev.toolonce.bench.e2e.StackIdle;
import dev.toolonce.bench.probe.CommitProbe;
import dev.toolonce.bench.relay.RelayPhase;
import dev.toolonce.bench.report.AwaitableResult;
import dev.toolonce.bench.report.BenchReport;
import dev.toolonce.bench.report.BurstResult;
import dev.toolonce.bench.report.CommitResult;
import dev.toolonce.bench.report.LoadResult;
import dev.toolonce.bench.report.RelayResult;
import dev.toolonce.bench.report.WarmupResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;

/**
 * One bench run against a running stack: the phases the options pick, in order, each started only once the
 * executor has nothing of the bench's tenant in flight. Every run has its own id and tenant
 * ({@code bench-<runId>}), so its idempotency keys are new and nothing is answered from an earlier run.
 *
 * <p>Before the first timed phase the whole stack is warmed, untimed: a service that has just started spends its
 * first seconds compiling its hot path (a first bench on a fresh stack measured 283 calls/s at 2.0 executor CPU-s per
 * 1,000 calls, the same bench a minute later 471 and 0.68), and a user believes the first run.
 */
public final class Bench {
    private static final Duration WARM_LOAD = Duration.ofSeconds(20);
    private Bench() {
    }

    public static BenchReport run(BenchOptions o) throws Exception {
        String runId = UUID.randomUUID().toString().substring(0, 8);
        BenchIntents intents = new BenchIntents("bench-" + runId, o.tool());
        StackIdle idle = new StackIdle(o.target(), intents.tenant());
        String startedAt = Instant.now().toString();
        System.out.printf("bench run %s (tenant %s): %s%n", runId, intents.tenant(), o.describe());

        WarmupResult warmup = null;
        if (o.warmup() > 0 && o.phases().stream().anyMatch(EnumSet.of(Phase.COMMIT, Phase.BURST, Phase.LOADS)::contains)) {
            warmup = warm(o, intents, runId, idle);
        }
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
            loads = new LoadLadder(o.target(), intents, runId, o.perTx()).run(o.loads(), o.seconds(), o.timeout());
        }
        AwaitableResult awaitable = null;
        if (o.phases().contains(Phase.AWAITABLE)) {
            idle.await(o.timeout());
            System.out.printf("[awaitable] %d calls through ToolCalls, one after the other, waits polling every %d ms%n",
                    o.awaitable(), o.callsPoll().toMillis());
            awaitable = new AwaitablePhase(o.target(), intents).run(runId, o.awaitable(), o.callsPoll(), o.timeout());
            System.out.printf("    p50 %.1f ms, p99 %.1f ms%n", awaitable.latency().p50(), awaitable.latency().p99());
        }
        return new BenchReport(runId, startedAt, o.describe(), Runtime.getRuntime().availableProcessors(),
                warmup, commit, relay, burst, loads, awaitable);
    }

    /**
     * Both end-to-end paths, untimed: straight to Kafka, then through the agent outbox (the relay warms itself); then,
     * when the run has a burst, untimed bursts of its size until two in a row agree ({@link WarmupResult#settled}), at
     * most {@link WarmupResult#MAX_SETTLING_BURSTS}: the timed burst then measures a warm stack, not the compilers.
     */
    private static WarmupResult warm(BenchOptions o, BenchIntents intents, String runId, StackIdle idle) throws Exception {
        double load = Math.min(o.loads().isEmpty() ? 250 : o.loads().get(0), 500);
        Duration each = o.seconds().compareTo(WARM_LOAD) < 0 ? o.seconds() : WARM_LOAD;
        boolean settle = o.phases().contains(Phase.BURST);
        System.out.printf("[warm-up] untimed, not reported: %d %s intents straight to Kafka, then %.0f calls/s for %d s "
                + "through the agent outbox%s (a stack that has just started spends its first seconds compiling)%n",
                o.warmup(), o.tool(), load, each.toSeconds(), settle ? ", then bursts of " + o.burst()
                        + " until two in a row agree within 5 % (at most " + WarmupResult.MAX_SETTLING_BURSTS + ")" : "");
        long start = System.nanoTime();
        BurstPhase bursts = new BurstPhase(o.target(), intents);
        idle.await(o.timeout());
        BurstPhase.Untimed first = bursts.warm(o.warmup(), "warm-burst-", o.timeout());
        long missing = first.unanswered();
        idle.await(o.timeout());
        missing += new LoadLadder(o.target(), intents, runId, 1).warm(load, each, o.timeout());
        List<Double> settling = new ArrayList<>();
        while (settle && settling.size() < WarmupResult.MAX_SETTLING_BURSTS && !WarmupResult.settled(settling)) {
            idle.await(o.timeout());
            BurstPhase.Untimed u = bursts.warm(o.burst(), "warm-burst-" + (settling.size() + 1) + "-", o.timeout());
            missing += u.unanswered();
            settling.add(u.callsPerSecond());
            System.out.printf("    untimed burst of %d: %.1f calls/s%n", o.burst(), u.callsPerSecond());
        }
        List<Double> rates = new ArrayList<>(List.of(first.callsPerSecond()));
        rates.addAll(settling);
        WarmupResult warmed = new WarmupResult(o.warmup(), load, each.toSeconds(), missing,
                (System.nanoTime() - start) / 1e9, rates);
        System.out.printf("    warmed in %.1f s%s%s%n", warmed.seconds(),
                warmed.settledBursts() ? "" : "; the untimed bursts had not settled",
                missing == 0 ? "" : "; " + missing + " warm-up calls unanswered (not counted as lost)");
        return warmed;
    }
}
