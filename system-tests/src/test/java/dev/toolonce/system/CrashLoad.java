package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.testsupport.TestKeys;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import tools.jackson.databind.JsonNode;

/**
 * A load of {@code counter} intents across an infrastructure crash, and the verdict on it. Intents go
 * straight to the intents topic (an asynchronous producer that buffers while the broker is away) or
 * through the agent's outbox ({@code IntentPublisher}); each is one scope of this run's tenant, so the
 * sandbox's ledger (counter applies every request it gets) shows any duplicate effect.
 */
final class CrashLoad implements AutoCloseable {
    /** Calls in these states are still being worked on; none may be left once the load has settled. */
    static final List<String> OPEN_STATES = List.of("PLANNED", "STARTED", "UNKNOWN", "RECONCILING", "FAILED_RETRYABLE");

    final Fixtures f;
    final ResultWatcher results;
    private final String name;
    private final EventCodec codec = new EventCodec();
    private final KafkaProducer<byte[], byte[]> producer;
    private final List<Sent> sent = java.util.Collections.synchronizedList(new ArrayList<>());
    private final ConcurrentLinkedQueue<Future<RecordMetadata>> inFlight = new ConcurrentLinkedQueue<>();

    /** One intent of the load. */
    record Sent(String messageId, String key, String phase, String via) {
    }

    CrashLoad(String name, SystemStack stack) {
        this.name = name;
        this.f = new Fixtures(stack);
        this.results = f.results();
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.infra.kafkaBootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        // Records sent while the broker is down wait in the buffer and go when it is back.
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "300000");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "120000");
        producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * {@link #sendDirect} on a thread of its own, as a client would keep sending while the broker is away:
     * once the producer has lost the broker, each {@code send} blocks until it is back (or 120 s pass).
     *
     * @return completes when every record was handed to the producer
     */
    CompletableFuture<Void> sendDirectInBackground(String phase, int n) {
        return CompletableFuture.runAsync(() -> sendDirect(phase, n));
    }

    /** {@code n} intents to the intents topic, asynchronously (acknowledged later, see {@link #awaitSent}). */
    void sendDirect(String phase, int n) {
        for (int i = 0; i < n; i++) {
            String key = phase + "-k" + i;
            ToolIntent intent = f.counter(key, f.tenant + "-" + phase, "k" + i, i + 1);
            String id = UUID.randomUUID().toString();
            ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(Contract.INTENTS_TOPIC,
                    intent.recordKey().getBytes(StandardCharsets.UTF_8),
                    codec.write(intent.withMessageId(id)).getBytes(StandardCharsets.UTF_8));
            r.headers().add(Contract.CE_ID, id.getBytes(StandardCharsets.UTF_8));
            r.headers().add(Contract.CE_SPECVERSION, "1.0".getBytes(StandardCharsets.UTF_8));
            r.headers().add(Contract.CE_TYPE, Contract.INTENT_TYPE.getBytes(StandardCharsets.UTF_8));
            inFlight.add(producer.send(TestKeys.signIntent(r)));
            sent.add(new Sent(id, key, phase, "kafka"));
        }
    }

    /** {@code n} intents through the agent's outbox, each in its own committed transaction (needs PostgreSQL). */
    void publishOutbox(String phase, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            String key = phase + "-o" + i;
            String id = f.publish(f.counter(key, f.tenant + "-" + phase, "o" + i, i + 1));
            sent.add(new Sent(id, key, phase, "outbox"));
        }
    }

    /** Waits until the broker acknowledged every direct send; fails on a send the producer gave up on. */
    void awaitSent(Duration timeout) {
        await("every direct send acknowledged").atMost(timeout).pollInterval(Duration.ofMillis(200))
                .until(() -> inFlight.stream().allMatch(Future::isDone));
        for (Future<RecordMetadata> fut : inFlight) {
            assertThat(fut).as("a direct send failed").succeedsWithin(Duration.ZERO);
        }
    }

    /** Polls the results topic until every intent has an answer; @return when the poll ended. */
    void awaitAllAnswered(Duration timeout) {
        await(name + ": every intent answered on the results topic").atMost(timeout).pollInterval(Duration.ofMillis(10))
                .until(() -> {
                    results.pollOnce(Duration.ofMillis(300));
                    return unanswered().isEmpty();
                });
    }

    /** Waits until none of this tenant's calls is open any more (the ledger has settled). */
    void awaitQuiescence(Duration timeout) {
        await(name + ": no call of this run left open").atMost(timeout).pollInterval(Duration.ofMillis(500))
                .until(() -> openCalls().isEmpty());
    }

    List<Sent> unanswered() {
        return sent().stream().filter(s -> !results.byIntent.containsKey(s.messageId())).toList();
    }

    /** The last answer (highest call version) per intent message id. */
    Map<String, ToolResult> finalResults() {
        Map<String, ToolResult> out = new HashMap<>();
        for (Sent s : sent()) {
            results.byIntent.getOrDefault(s.messageId(), List.of()).stream()
                    .max(Comparator.comparingLong(ToolResult::callVersion)).ifPresent(r -> out.put(s.messageId(), r));
        }
        return out;
    }

    /** Effects of this tenant at the sandbox: opId → count, from one read of its ledger. */
    Map<String, Long> effects() throws Exception {
        Map<String, Long> out = new HashMap<>();
        for (JsonNode e : f.getJson(f.stack.sandboxUrl + "/_ledger?tool=counter").path("effects")) {
            String opId = e.path("opId").asString("");
            if (opId.startsWith(f.tenant + ":")) {
                out.merge(opId.substring(f.tenant.length() + 1), e.path("count").asLong(), Long::sum);
            }
        }
        return out;
    }

    /** This tenant's calls in an open state, as "key state". */
    List<String> openCalls() throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(f.stack.jdbcUrl, "postgres", "");
             PreparedStatement ps = c.prepareStatement("SELECT idempotency_key, state FROM executor.tool_call"
                     + " WHERE tenant_id = ? AND state = ANY (?)")) {
            ps.setString(1, f.tenant);
            ps.setArray(2, c.createArrayOf("text", OPEN_STATES.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1) + " " + rs.getString(2));
                }
            }
        }
        return out;
    }

    /** Agent steps of the outbox-published intents still PENDING. */
    List<String> pendingSteps() throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(f.stack.jdbcUrl, "postgres", "");
             PreparedStatement ps = c.prepareStatement("SELECT task_id, step_id FROM agent.agent_step"
                     + " WHERE tenant_id = ? AND status = 'PENDING'")) {
            ps.setString(1, f.tenant);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1) + "/" + rs.getString(2));
                }
            }
        }
        return out;
    }

    /**
     * Time from {@code back} (the infrastructure answered again) to the first result record of this run
     * the relay produced after it, from the records' own timestamps; null when there is none.
     */
    Duration timeToFirstResultAfter(Instant back) {
        return results.records.stream()
                .filter(r -> r.timestamp() >= back.toEpochMilli())
                .filter(r -> new String(r.key(), StandardCharsets.UTF_8).startsWith(f.tenant + "/"))
                .map(ConsumerRecord::timestamp).min(Long::compare)
                .map(t -> Duration.ofMillis(t - back.toEpochMilli())).orElse(null);
    }

    /**
     * Prints the figures of the run (call it in a {@code finally}, so a run whose waits timed out prints
     * them too): intents by phase and path, answers by final status, effects, duplicates, calls still open,
     * agent steps still pending, and the time from {@code back} to the first new result.
     */
    void report(Instant back) throws Exception {
        results.pollOnce(Duration.ofMillis(500));
        Map<String, ToolResult> finals = finalResults();
        Map<String, Long> effects = effects();
        Map<ResultStatus, Long> byStatus = finals.values().stream()
                .collect(Collectors.groupingBy(ToolResult::status, Collectors.counting()));
        long duplicates = effects.values().stream().filter(c -> c > 1).count();
        Duration resume = back == null ? null : timeToFirstResultAfter(back);
        Map<String, Long> byPhase = sent().stream().collect(Collectors.groupingBy(s -> s.phase() + "/" + s.via(),
                java.util.TreeMap::new, Collectors.counting()));
        Map<String, Long> unansweredByPhase = unanswered().stream().collect(Collectors.groupingBy(
                s -> s.phase() + "/" + s.via(), java.util.TreeMap::new, Collectors.counting()));
        List<String> open = openCalls();
        System.out.printf("[%s] intents=%d %s answered=%d unanswered=%s statuses=%s effects=%d effect_total=%d "
                        + "duplicate_effects=%d open_calls=%d pending_steps=%d time_to_resume_ms=%s%n",
                name, sent.size(), byPhase, finals.size(), unansweredByPhase, byStatus, effects.size(),
                effects.values().stream().mapToLong(Long::longValue).sum(), duplicates, open.size(),
                pendingSteps().size(), resume == null ? "none" : resume.toMillis());
        if (!open.isEmpty()) {
            System.out.printf("[%s] open calls (first 20): %s%n", name, open.subList(0, Math.min(20, open.size())));
        }
    }

    /**
     * The verdict, after {@link #awaitAllAnswered} and {@link #awaitQuiescence}: every intent answered with
     * a final status; one effect for every committed call and never more than one for any; no call open;
     * no agent step left pending.
     */
    void verify() throws Exception {
        Map<String, ToolResult> finals = finalResults();
        Map<String, Long> effects = effects();
        assertThat(unanswered()).as("intents without an answer on the results topic").isEmpty();
        assertThat(effects.entrySet()).as("scopes with more than one effect at the sandbox")
                .filteredOn(e -> e.getValue() > 1).isEmpty();
        for (Sent s : sent()) {
            ToolResult r = finals.get(s.messageId());
            assertThat(r.status()).as("final status of %s (%s, %s)", s.key(), s.phase(), s.via())
                    .isIn(ResultStatus.COMMITTED, ResultStatus.NEEDS_REVIEW);
            if (r.status() == ResultStatus.COMMITTED) {
                assertThat(effects.getOrDefault(s.key(), 0L)).as("effects of committed %s (%s, %s)", s.key(),
                        s.phase(), s.via()).isEqualTo(1);
            }
        }
        assertThat(openCalls()).as("calls left open").isEmpty();
        assertThat(pendingSteps()).as("agent steps never answered").isEmpty();
    }

    /** Every intent of the load, in the order sent. */
    List<Sent> sent() {
        synchronized (sent) {
            return List.copyOf(sent);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
        results.close();
        f.close();
    }
}
