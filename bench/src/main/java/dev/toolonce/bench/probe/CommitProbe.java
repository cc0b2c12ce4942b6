package dev.toolonce.bench.probe;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.bench.BenchTarget;
import dev.toolonce.bench.drive.BenchIntents;
import dev.toolonce.bench.report.CommitResult;
import dev.toolonce.bench.stats.Latencies;
import dev.toolonce.schemas.Contract;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ceiling every other figure is divided by: how many agent transactions (one {@code agent_step} row and
 * one {@code outbox_event} row, written by the real {@link IntentPublisher}) this database commits per
 * second from {@code clients} closed-loop clients. Runs in a {@link ScratchSchema}, so the relay and the
 * services never see these rows; nothing else about the write differs from an agent's.
 */
public final class CommitProbe {
    private final BenchTarget target;
    private final BenchIntents intents;

    public CommitProbe(BenchTarget target, BenchIntents intents) {
        this.target = target;
        this.intents = intents;
    }

    public CommitResult run(String runId, int clients, Duration duration) throws Exception {
        try (ScratchSchema scratch = new ScratchSchema(target, runId)) {
            IntentPublisher publisher = new IntentPublisher(scratch.name(), Contract.INTENTS_TOPIC, "/toolonce/bench-probe",
                    target.keyring());
            Latencies latencies = new Latencies();
            AtomicLong seq = new AtomicLong();
            long start = System.nanoTime();
            long end = start + duration.toNanos();
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int i = 0; i < clients; i++) {
                    futures.add(pool.submit(() -> commitUntil(end, publisher, seq, latencies)));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            return new CommitResult(clients, seconds, seq.get(), seq.get() / seconds, latencies.summary());
        }
    }

    private Void commitUntil(long end, IntentPublisher publisher, AtomicLong seq, Latencies latencies) throws Exception {
        try (Connection c = target.connect()) {
            while (System.nanoTime() < end) {
                long n = seq.getAndIncrement();
                long t0 = System.nanoTime();
                publisher.publish(c, intents.intent("probe-" + n, "probe-" + n));
                c.commit();
                latencies.add((System.nanoTime() - t0) / 1000);
            }
        }
        return null;
    }
}
