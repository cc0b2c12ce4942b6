package dev.toolonce.bench.e2e;

import dev.toolonce.agent.publish.IntentRecords;
import dev.toolonce.agent.results.StepResults;
import dev.toolonce.bench.BenchTarget;
import dev.toolonce.bench.drive.BenchIntents;
import dev.toolonce.bench.relay.RelayStatsClient;
import dev.toolonce.bench.report.BurstResult;
import dev.toolonce.bench.report.ResourceUse;
import dev.toolonce.bench.report.StatementUse;
import dev.toolonce.bench.resources.ResourceSampler;
import dev.toolonce.bench.stats.Latencies;
import dev.toolonce.bench.stats.LatencySummary;
import dev.toolonce.bench.stats.StatementCounts;
import dev.toolonce.bench.watch.TopicWatcher;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.ToolIntent;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * End to end at full speed: intents of the bench's tool ({@link BenchIntents}) produced straight to {@code toolonce.tool-intents} as
 * fast as the producer takes them, then every result awaited on {@code toolonce.tool-results} (matched by
 * {@code intentMessageId}). Measures calls per second from the first send to the last result, the latency
 * of each call, the relay's own commit→ack latency over those results, and the CPU and memory of every
 * component meanwhile.
 *
 * <p>Each intent's agent step is opened first, before the clock starts, as an agent's {@code IntentPublisher}
 * opens it in its own transaction before the intent leaves. So every result takes the result consumer's
 * production path (its step is updated), not the rare path of a result that overtook its step, which a burst of
 * steps that never exist would measure instead. The agent's own cost is what the loads through the outbox add.
 *
 * <p>The records (JSON body, signature, headers) are built before the clock starts too, so that inside the timed
 * window the bench, which shares the stack's cores, only hands bytes to its producer and reads the results: built
 * while the stack ran, 20,000 records took 3.3–3.8 s of the window and a third of a core (docs/performance.md, tenth
 * round).
 */
public final class BurstPhase {
    /** The schema of the agent's tables on the bench's stack (the local stack's agent library). */
    private static final String AGENT_SCHEMA = "agent";
    private final BenchTarget target;
    private final BenchIntents intents;
    private final IntentRecords records;

    public BurstPhase(BenchTarget target, BenchIntents intents) {
        this.target = target;
        this.intents = intents;
        this.records = new IntentRecords("/toolonce/bench", target.keyring());
    }

    public BurstResult run(int count, Duration timeout) throws Exception {
        Map<String, Long> sentAt = new LinkedHashMap<>();
        ResourceSampler resources = new ResourceSampler(target);
        try (TopicWatcher results = new TopicWatcher(target, Contract.RESULTS_TOPIC,
                new ResultReader(intents.tenant())).start();
             KafkaProducer<byte[], byte[]> producer = producer()) {
            RelayStatsClient relay = new RelayStatsClient(target.relayUrl(), target.authorization());
            // opened before the CPU and SQL counters start: the agent's own work is not the burst's
            Map<String, ProducerRecord<byte[], byte[]>> burst = records(openSteps(count, "burst-"));
            boolean relayReset = quietly(relay::reset) != null;
            try (Connection sql = target.connect()) {
                StatementCounts.Snapshot before = StatementCounts.take(sql);
                resources.start();
                long first = System.nanoTime();
                produce(producer, burst, sentAt);
                System.out.printf("    produced %d intents in %d ms%n", count, (System.nanoTime() - first) / 1_000_000);
                long answered = results.awaitAll(sentAt.keySet(), timeout, "results");
                List<ResourceUse> used = resources.stop(answered);
                StatementUse statements = StatementCounts.between(before, StatementCounts.take(sql), answered);
                return result(sentAt, results, answered, first, used, relayReset ? quietly(relay::latency) : null,
                        statements);
            }
        }
    }

    /**
     * The same path untimed, to warm a stack that has just started (every service compiles its hot path in its first
     * seconds): {@code count} intents whose tasks are named {@code prefix…}, every result awaited, only the rate kept.
     *
     * @param prefix the names of the intents' tasks and keys, new for every warm-up burst of a run (an idempotency key
     *               used before would be answered from the ledger, not by the tool)
     */
    public Untimed warm(int count, String prefix, Duration timeout) throws Exception {
        Map<String, Long> sentAt = new LinkedHashMap<>();
        try (TopicWatcher results = new TopicWatcher(target, Contract.RESULTS_TOPIC,
                new ResultReader(intents.tenant())).start();
             KafkaProducer<byte[], byte[]> producer = producer()) {
            Map<String, ProducerRecord<byte[], byte[]>> burst = records(openSteps(count, prefix));
            long first = System.nanoTime();
            produce(producer, burst, sentAt);
            long answered = results.awaitAll(sentAt.keySet(), timeout, "warm-up results");
            double seconds = secondsToLastAnswer(sentAt, results, first);
            return new Untimed(count - answered, seconds <= 0 ? 0 : answered / seconds);
        }
    }

    /** What an untimed burst left: calls not answered within the timeout, and the rate of those answered. */
    public record Untimed(long unanswered, double callsPerSecond) {
    }

    /**
     * Opens the agent step of each of {@code count} intents (task and key {@code prefix + i}, step 1) under a new
     * message id, committed 500 at a time. @return the intents by message id, in order
     */
    private Map<String, ToolIntent> openSteps(int count, String prefix) throws SQLException {
        Map<String, ToolIntent> byId = new LinkedHashMap<>();
        long started = System.nanoTime();
        try (Connection c = target.connect()) {
            StepResults steps = new StepResults(new JdbcTemplate(new SingleConnectionDataSource(c, true)), AGENT_SCHEMA);
            for (int i = 0; i < count; i++) {
                ToolIntent intent = intents.intent(prefix + i, prefix + i);
                String id = UUID.randomUUID().toString();
                steps.open(intent, id);
                byId.put(id, intent);
                if (i % 500 == 499) {
                    c.commit();
                }
            }
            c.commit();
        }
        System.out.printf("    opened %d agent steps in %d ms (before the clock starts)%n", count,
                (System.nanoTime() - started) / 1_000_000);
        return byId;
    }

    /** Each intent's signed record under its message id, in order. */
    private Map<String, ProducerRecord<byte[], byte[]>> records(Map<String, ToolIntent> byId) {
        Map<String, ProducerRecord<byte[], byte[]>> built = new LinkedHashMap<>();
        byId.forEach((id, intent) -> built.put(id, records.record(intent, id)));
        return built;
    }

    private void produce(KafkaProducer<byte[], byte[]> producer, Map<String, ProducerRecord<byte[], byte[]>> byId,
                         Map<String, Long> sentAt) {
        AtomicReference<Exception> failure = new AtomicReference<>();
        for (Map.Entry<String, ProducerRecord<byte[], byte[]>> e : byId.entrySet()) {
            sentAt.put(e.getKey(), System.nanoTime());
            producer.send(e.getValue(), (meta, x) -> failure.compareAndSet(null, x));
        }
        producer.flush();
        if (failure.get() != null) {
            throw new IllegalStateException(byId.size() + " intents could not all be produced", failure.get());
        }
    }

    private static BurstResult result(Map<String, Long> sentAt, TopicWatcher results, long answered, long first,
                                      List<ResourceUse> resources, LatencySummary relayLatency,
                                      StatementUse statements) {
        Latencies latencies = new Latencies();
        Map<String, Long> statuses = new TreeMap<>();
        for (Map.Entry<String, Long> sent : sentAt.entrySet()) {
            TopicWatcher.Seen seen = results.seen(sent.getKey());
            if (seen != null) {
                latencies.add((seen.nanos() - sent.getValue()) / 1000);
                statuses.merge(seen.label(), 1L, Long::sum);
            }
        }
        double seconds = secondsToLastAnswer(sentAt, results, first);
        return new BurstResult(sentAt.size(), answered, sentAt.size() - answered, results.duplicates(), statuses,
                seconds, seconds <= 0 ? 0 : answered / seconds, latencies.summary(), latencies.cdf(100), resources,
                relayLatency, statements);
    }

    /** From the first send to the last answer of the calls sent: the window a burst's rate is counted over. */
    private static double secondsToLastAnswer(Map<String, Long> sentAt, TopicWatcher results, long first) {
        long last = first;
        for (String id : sentAt.keySet()) {
            TopicWatcher.Seen seen = results.seen(id);
            if (seen != null) {
                last = Math.max(last, seen.nanos());
            }
        }
        return (last - first) / 1e9;
    }

    /** The relay's figures are a bonus here: a relay without {@code /relay/stats} must not fail the burst. */
    private static <T> T quietly(Callable<T> read) {
        try {
            return read.call();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            System.out.println("    (the relay's commit→ack figures are not readable: " + e.getMessage() + ")");
            return null;
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        Properties p = new Properties();
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        return new KafkaProducer<>(target.kafkaClient(p), new ByteArraySerializer(), new ByteArraySerializer());
    }
}
