package dev.toolonce.chaos;

import dev.toolonce.chaos.faults.Catalogue;
import dev.toolonce.chaos.faults.Fault;
import dev.toolonce.chaos.faults.FaultContext;
import dev.toolonce.chaos.faults.Injection;
import dev.toolonce.chaos.faults.Sandbox;
import dev.toolonce.chaos.metrics.MeterWatch;
import dev.toolonce.chaos.oracle.Oracle;
import dev.toolonce.chaos.oracle.RoundResult;
import dev.toolonce.chaos.report.ChaosReport;
import dev.toolonce.chaos.report.FaultSummary;
import dev.toolonce.chaos.stack.ChaosStack;
import dev.toolonce.chaos.stack.Sleep;
import dev.toolonce.chaos.workload.ResultsWatch;
import dev.toolonce.chaos.workload.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The experiment: start the stack, then for each selected fault run {@code perFault} rounds. A round gives the
 * workload a tenant of its own, lets it run, injects the fault once (restoring what it broke), lets it run on,
 * stops it, waits for quiescence and has the {@link Oracle} judge the round.
 */
public final class Chaos {
    private static final Duration WARM_UP = Duration.ofSeconds(2);
    private static final Duration AFTER = Duration.ofSeconds(3);
    private static final int JUDGING_ATTEMPTS = 3;
    private static final Duration JUDGING_PAUSE = Duration.ofSeconds(5);

    private Chaos() {
    }

    public static ChaosReport run(ChaosOptions o) throws Exception {
        long start = System.nanoTime();
        String runId = UUID.randomUUID().toString().substring(0, 8);
        String mode = o.unsafeBaseline() ? "unsafe-baseline" : "toolonce";
        String prefix = "chaos-" + runId;
        System.out.printf("[chaos] %s run %s: faults %s, %d per fault, home %s%n", mode, runId,
                String.join(",", o.faults()), o.perFault(), o.home());
        ChaosStack stack = new ChaosStack(o.repo(), o.home(), o.ports(), o.unsafeBaseline(), o.kafka(), o.jvmOptions());
        List<RoundResult> rounds = new ArrayList<>();
        List<FaultSummary> summaries = new ArrayList<>();
        Thread stopOnExit = new Thread(stack::close, "chaos-stop-stack"); // Ctrl-C or SIGTERM: stop what we started
        if (!o.keep()) {
            Runtime.getRuntime().addShutdownHook(stopOnExit);
        }
        try {
            stack.up();
            Sandbox sandbox = new Sandbox(stack.sandboxUrl());
            sandbox.faults("payments", "{}");
            try (ResultsWatch watch = new ResultsWatch(stack.kafkaBootstrap(), o.kafka(), prefix);
                 Workload workload = new Workload(stack.jdbcUrl(), stack.kafkaBootstrap(), o.kafka(), o.rate(),
                         !o.unsafeBaseline(), stack.keyring())) {
                Oracle oracle = new Oracle(stack.jdbcUrl(), sandbox, watch, o.unsafeBaseline());
                MeterWatch meters = new MeterWatch(stack.meterEndpoints(), stack.scrapeAuthorization());
                for (String name : o.faults()) {
                    Fault fault = Catalogue.all().get(name);
                    List<RoundResult> ofFault = new ArrayList<>();
                    Map<String, Double> moved = new TreeMap<>();
                    for (int i = 1; i <= o.perFault(); i++) {
                        String tenant = prefix + "-" + name + "-" + i;
                        Map<String, Map<String, Double>> before = meters.snapshot();
                        RoundResult r = round(fault, i, tenant, new FaultContext(stack, workload, watch, sandbox, i),
                                oracle, o.quiesce());
                        MeterWatch.add(moved, MeterWatch.moved(before, meters.snapshot()));
                        progress(r, o.perFault());
                        ofFault.add(r);
                    }
                    rounds.addAll(ofFault);
                    summaries.add(FaultSummary.of(name, fault.description(), ofFault, moved));
                }
            }
        } finally {
            if (o.keep()) {
                System.out.printf("[chaos] --keep: the stack stays up (TOOLONCE_HOME=%s ./toolonce down stops it)%n",
                        o.home());
            } else {
                stack.close();
                Runtime.getRuntime().removeShutdownHook(stopOnExit);
            }
        }
        return ChaosReport.of(mode, runId, o.perFault(), summaries, rounds, (System.nanoTime() - start) / 1_000_000_000L);
    }

    private static RoundResult round(Fault fault, int i, String tenant, FaultContext ctx, Oracle oracle,
                                     Duration quiesce) throws Exception {
        ctx.workload().begin(tenant);
        Injection injection;
        try {
            Sleep.millis(WARM_UP.toMillis());
            injection = inject(fault, ctx);
            Sleep.millis(AFTER.toMillis());
        } finally {
            ctx.workload().end();
        }
        ctx.stack().reviveDead();
        return judge(fault, i, tenant, injection, ctx, oracle, quiesce);
    }

    /**
     * The oracle's reads can break (a service just restarted, a read timed out): they are tried {@link
     * #JUDGING_ATTEMPTS} times. A round that still cannot be judged fails the experiment, and the run goes on, so that
     * one broken read does not throw away the rounds before it and after it.
     */
    private static RoundResult judge(Fault fault, int i, String tenant, Injection injection, FaultContext ctx,
                                     Oracle oracle, Duration quiesce) {
        Exception last = null;
        for (int attempt = 1; attempt <= JUDGING_ATTEMPTS; attempt++) {
            try {
                return oracle.judge(fault.name(), i, tenant, injection, ctx.workload().sent(tenant),
                        ctx.workload().extraDeliveries(tenant), quiesce);
            } catch (Exception e) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new IllegalStateException("interrupted while judging " + fault.name() + " round " + i, e);
                }
                last = e;
                System.out.printf("[chaos] %s round %d: judging failed (attempt %d of %d): %s%n", fault.name(), i,
                        attempt, JUDGING_ATTEMPTS, e);
                if (attempt < JUDGING_ATTEMPTS) {
                    ctx.stack().reviveDead();
                    Sleep.millis(JUDGING_PAUSE.toMillis());
                }
            }
        }
        return RoundResult.notJudged(fault.name(), i, tenant, injection.count(), injection.note(), String.valueOf(last));
    }

    /** A fault whose injection throws did not demonstrably fire: the round counts as missed, and the run goes on. */
    private static Injection inject(Fault fault, FaultContext ctx) {
        try {
            return fault.action().inject(ctx);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            System.out.printf("[chaos] %s: the injection failed: %s%n", fault.name(), e);
            ctx.stack().reviveDead();
            return Injection.missed("injection failed: " + e.getMessage());
        }
    }

    private static void progress(RoundResult r, int of) {
        System.out.printf(Locale.ROOT, "[chaos] %-23s %2d/%-2d injected=%d (%s) calls=%d sagas=%d msgs=%d dup=%d lost=%d stuck=%d "
                        + "unknown=%d reconciled=%d review=%d recovery=%s quiesced in %.1f s%s%n",
                r.fault(), r.round(), of, r.injections(), r.note(), r.calls(), r.sagas(), r.messages(), r.duplicates(), r.lost(),
                r.stuck(), r.unknown(), r.reconciled(), r.review(), r.recoveryMillis(), r.quiesceMillis() / 1000.0,
                r.clean() ? "" : r.judged() ? "  <-- " + r.statuses() : "  <-- NOT JUDGED: " + r.judgingFailure());
    }
}
