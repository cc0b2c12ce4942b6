package dev.toolonce.bench.e2e;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.bench.BenchTarget;
import dev.toolonce.bench.drive.BenchIntents;
import dev.toolonce.bench.drive.PacedLoad;
import dev.toolonce.bench.drive.Transactions;
import dev.toolonce.bench.report.Hops;
import dev.toolonce.bench.report.LoadResult;
import dev.toolonce.bench.report.LoadStepResult;
import dev.toolonce.bench.report.ResourceUse;
import dev.toolonce.bench.report.StatementUse;
import dev.toolonce.bench.resources.ResourceSampler;
import dev.toolonce.bench.stats.Latencies;
import dev.toolonce.bench.stats.StatementCounts;
import dev.toolonce.schemas.Contract;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Offered loads through the agent's real path: {@link IntentPublisher} writes the step and the intent in one
 * transaction per call, the relay publishes it, the executor calls the bench's tool, the result comes back
 * through the executor's outbox and the relay, and the result consumer updates the step. Latency is the
 * client's commit (wall clock) to the step's {@code updated_at} (database wall clock, same host). The knee
 * is the first load not sustained: achieved below 95 % of offered, or p99 above 250 ms.
 */
public final class LoadLadder {
    static final double SUSTAINED_FRACTION = 0.95;
    static final double P99_LIMIT_MS = 250;

    private final BenchTarget target;
    private final BenchIntents intents;
    private final String runId;
    private final AgentSteps steps;
    private final StackIdle idle;
    private final IntentPublisher publisher;
    private final int perTx;

    /** @param perTx intents per agent transaction, published together ({@link IntentPublisher#publishAll}) */
    public LoadLadder(BenchTarget target, BenchIntents intents, String runId, int perTx) {
        this.target = target;
        this.perTx = perTx;
        this.intents = intents;
        this.runId = runId;
        this.publisher = new IntentPublisher("agent", Contract.INTENTS_TOPIC, "/toolonce/bench", target.keyring());
        this.steps = new AgentSteps(target, intents.tenant());
        this.idle = new StackIdle(target, intents.tenant());
    }

    public LoadResult run(List<Double> loads, Duration each, Duration timeout) throws Exception {
        List<LoadStepResult> results = new ArrayList<>();
        Double knee = null;
        String reason = null;
        for (int i = 0; i < loads.size(); i++) {
            double load = loads.get(i);
            System.out.printf("  offered %.0f calls/s through the agent outbox for %d s%s%n", load, each.toSeconds(),
                    perTx == 1 ? "" : ", " + perTx + " intents per transaction");
            // the step's index in the name: a rate offered twice (--loads 500,500) must not find the first step's tasks
            LoadStepResult r = step("load-" + runId + "-" + i + "-" + (long) load + "-", load, each, timeout);
            results.add(r);
            System.out.printf("    achieved %.1f/s, p50 %.1f ms, p99 %.1f ms%n",
                    r.achievedPerSecond(), r.latency().p50(), r.latency().p99());
            if (knee == null && (reason = kneeReason(r)) != null) {
                knee = load;
            }
            idle.await(timeout);
        }
        return new LoadResult(results, knee, knee == null ? null : reason);
    }

    /**
     * The same path untimed, to warm a stack that has just started: {@code load} calls/s for {@code each} through the
     * agent outbox, tasks named {@code warm-…}, every answer awaited, nothing reported.
     *
     * @return steps still unanswered after {@code timeout}
     */
    public long warm(double load, Duration each, Duration timeout) throws Exception {
        LoadStepResult r = step("warm-" + runId + "-", load, each, timeout);
        idle.await(timeout);
        return r.lost();
    }

    static String kneeReason(LoadStepResult r) {
        if (r.achievedPerSecond() < SUSTAINED_FRACTION * r.offeredPerSecond()) {
            return String.format("achieved %.1f/s < 95 %% of offered", r.achievedPerSecond());
        }
        return r.latency().p99() > P99_LIMIT_MS ? String.format("p99 %.1f ms > 250 ms", r.latency().p99()) : null;
    }

    private LoadStepResult step(String prefix, double load, Duration each, Duration timeout) throws Exception {
        Map<String, Long> committedMicros = new ConcurrentHashMap<>();
        double transactions = load / perTx;
        int threads = (int) Math.min(16, Math.max(2, Math.ceil(transactions / 125)));
        ResourceSampler resources = new ResourceSampler(target);
        PacedLoad.Result sent;
        long pending;
        Map<String, AgentSteps.Answer> answers;
        List<ResourceUse> used;
        StatementUse statements;
        try (Connection sql = target.connect()) {
            StatementCounts.Snapshot before = StatementCounts.take(sql);
            resources.start();
            sent = PacedLoad.run(transactions, each, threads, t -> writer(prefix, committedMicros));
            pending = steps.awaitAnswered(prefix, timeout);
            answers = steps.answers(prefix);
            used = resources.stop(answers.size());
            statements = StatementCounts.between(before, StatementCounts.take(sql), answers.size());
        }
        Latencies latencies = new Latencies();
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long notCommitted = 0;
        for (Map.Entry<String, Long> c : committedMicros.entrySet()) {
            first = Math.min(first, c.getValue());
            AgentSteps.Answer a = answers.get(c.getKey());
            if (a != null) {
                latencies.add(a.updatedMicros() - c.getValue());
                last = Math.max(last, a.updatedMicros());
                notCommitted += "COMMITTED".equals(a.status()) ? 0 : 1;
            }
        }
        double span = (last - first) / 1e6;
        Hops hops = steps.hops(prefix);
        if (hops != null) {
            System.out.printf("    by segment, p50 / p99 ms: to the executor %.1f / %.1f, claim %.1f / %.1f, run %.1f / %.1f,"
                            + " back %.1f / %.1f%n", hops.toExecutor().p50(), hops.toExecutor().p99(), hops.claim().p50(),
                    hops.claim().p99(), hops.run().p50(), hops.run().p99(), hops.back().p50(), hops.back().p99());
        }
        LoadStepResult r = new LoadStepResult(load, sent.seconds(), sent.done() * perTx, sent.perSecond() * perTx,
                answers.size(), pending, notCommitted, span <= 0 ? 0 : answers.size() / span, latencies.summary(),
                latencies.cdf(100), hops, used, statements);
        System.out.println("    " + r.costLine());
        return r;
    }

    private PacedLoad.Worker writer(String prefix, Map<String, Long> committedMicros) {
        return Transactions.worker(target, (c, seq) -> {
            List<String> tasks = new ArrayList<>(perTx);
            for (int i = 0; i < perTx; i++) {
                tasks.add(perTx == 1 ? prefix + seq : prefix + seq + "-" + i);
            }
            publisher.publishAll(c, tasks.stream().map(task -> intents.intent(task, task)).toList());
            c.commit();
            long committed = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
            tasks.forEach(task -> committedMicros.put(task, committed));
        });
    }
}
