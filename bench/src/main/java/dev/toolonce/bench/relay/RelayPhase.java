package dev.toolonce.bench.relay;

import dev.toolonce.bench.BenchTarget;
import dev.toolonce.bench.drive.PacedLoad;
import dev.toolonce.bench.drive.Transactions;
import dev.toolonce.bench.report.BacklogResult;
import dev.toolonce.bench.report.RelayResult;
import dev.toolonce.bench.report.RelayRunResult;
import dev.toolonce.bench.stats.Latencies;
import dev.toolonce.bench.stats.LatencySummary;
import dev.toolonce.bench.watch.TopicWatcher;
import dev.toolonce.schemas.Contract;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * The relay alone: rows in the agent outbox naming a bench topic, at fixed rates and then as one backlog.
 * Two views of each run: the relay's own commit→ack histogram, and the bench's consumer of the bench topic
 * (client-side commit return → record received), which includes the broker and one fetch.
 */
public final class RelayPhase {
    public static final String TOPIC = "toolonce.bench.relay";
    private static final int BACKLOG_TRANSACTION_ROWS = 5_000;
    /** A marker relayed within this is taken as "the relay has nothing older left to read". */
    private static final long SETTLED_MICROS = 50_000;
    private static final Duration WARMUP = Duration.ofSeconds(5);

    private final BenchTarget target;
    private final String runId;
    private final Duration timeout;
    private final RelayStatsClient relayStats;

    public RelayPhase(BenchTarget target, String runId, Duration timeout) {
        this.target = target;
        this.runId = runId;
        this.timeout = timeout;
        this.relayStats = new RelayStatsClient(target.relayUrl(), target.authorization());
    }

    public RelayResult run(List<Double> rates, Duration each, int backlog) throws Exception {
        BenchTopic.ensure(target, TOPIC, 12);
        try (TopicWatcher watcher = new TopicWatcher(target, TOPIC, RelayPhase::ceId).start()) {
            List<RelayRunResult> runs = new ArrayList<>();
            if (!rates.isEmpty()) {
                // A relay that has not run this path yet spends its first seconds compiling it (a fresh relay
                // measured here had p95 ≈ 1 s at 1,000/s, a warm one 8 ms): warm it at the first rate, untimed.
                settle(watcher);
                Duration warmup = each.compareTo(WARMUP) < 0 ? each : WARMUP;
                System.out.printf("  warm-up at %.0f events/s for %d s (not reported)%n", rates.get(0), warmup.toSeconds());
                atRate(watcher, rates.get(0), warmup);
            }
            for (double rate : rates) {
                settle(watcher);
                System.out.printf("  relay at %.0f events/s for %d s%n", rate, each.toSeconds());
                runs.add(atRate(watcher, rate, each));
            }
            BacklogResult drained = null;
            if (backlog > 0) {
                settle(watcher);
                System.out.printf("  relay backlog of %d events%n", backlog);
                drained = backlog(watcher, backlog);
            }
            return new RelayResult(TOPIC, runs, drained);
        }
    }

    /**
     * Waits until the relay has caught up with the WAL before a measurement starts. The relay decodes the WAL
     * in commit order, so a marker row relayed quickly proves everything committed before it (the commit
     * probe's transactions, the previous rate's tail) is behind the relay. Without this the first seconds of a
     * rate measure the previous phase's backlog.
     */
    private void settle(TopicWatcher watcher) throws Exception {
        BenchOutbox outbox = new BenchOutbox(TOPIC, runId);
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        int quick = 0;
        try (Connection c = target.connect()) {
            for (long seq = 2_000_000_000L; quick < 3 && System.nanoTime() < deadline; seq++) {
                String id = outbox.append(c, 1, seq).get(0);
                c.commit();
                long committed = System.nanoTime();
                watcher.awaitAll(List.of(id), timeout, "settling");
                TopicWatcher.Seen seen = watcher.seen(id);
                quick = seen != null && (seen.nanos() - committed) / 1000 < SETTLED_MICROS ? quick + 1 : 0;
                Thread.sleep(100);
            }
        }
        System.out.printf("    relay settled in %.1f s%n", (System.nanoTime() - start) / 1e9);
    }

    private static TopicWatcher.Reading ceId(ConsumerRecord<byte[], byte[]> r) {
        Header id = r.headers().lastHeader(Contract.CE_ID);
        return id == null ? null : new TopicWatcher.Reading(new String(id.value(), StandardCharsets.UTF_8), null);
    }

    private RelayRunResult atRate(TopicWatcher watcher, double rate, Duration each) throws Exception {
        long publishedBefore = relayStats.reset();
        Map<String, Long> committedAt = new ConcurrentHashMap<>();
        int threads = (int) Math.min(16, Math.max(2, Math.ceil(rate / 400)));
        PacedLoad.Result sent = PacedLoad.run(rate, each, threads, t -> writer(committedAt));
        long received = watcher.awaitAll(committedAt.keySet(), timeout, "relayed");
        Latencies own = new Latencies();
        committedAt.forEach((id, at) -> {
            TopicWatcher.Seen seen = watcher.seen(id);
            if (seen != null) {
                own.add((seen.nanos() - at) / 1000);
            }
        });
        LatencySummary relayLatency = relayStats.latency();
        long published = relayStats.published() - publishedBefore;
        return new RelayRunResult(rate, sent.seconds(), sent.done(), sent.perSecond(), received,
                committedAt.size() - received, published, relayLatency, own.summary(), own.cdf(100));
    }

    private PacedLoad.Worker writer(Map<String, Long> committedAt) {
        BenchOutbox outbox = new BenchOutbox(TOPIC, runId);
        return Transactions.worker(target, (c, seq) -> {
            String id = outbox.append(c, 1, seq).get(0);
            c.commit();
            committedAt.put(id, System.nanoTime());
        });
    }

    private BacklogResult backlog(TopicWatcher watcher, int events) throws Exception {
        List<String> ids = new ArrayList<>(events);
        long start = System.nanoTime();
        BenchOutbox outbox = new BenchOutbox(TOPIC, runId);
        try (Connection c = target.connect()) {
            for (int done = 0; done < events; done += BACKLOG_TRANSACTION_ROWS) {
                ids.addAll(outbox.append(c, Math.min(BACKLOG_TRANSACTION_ROWS, events - done), 1_000_000_000L + done));
                c.commit();
            }
        }
        double insertSeconds = (System.nanoTime() - start) / 1e9;
        long received = watcher.awaitAll(ids, timeout, "drained");
        long last = ids.stream().map(watcher::seen).filter(java.util.Objects::nonNull)
                .mapToLong(TopicWatcher.Seen::nanos).max().orElse(start);
        double drainSeconds = (last - start) / 1e9;
        return new BacklogResult(events, insertSeconds, drainSeconds, drainSeconds <= 0 ? 0 : received / drainSeconds,
                received, events - received);
    }
}
