package dev.toolonce.chaos.workload;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.chaos.workload.SentCall.Kind;
import dev.toolonce.messaging.KafkaClientDefaults;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.security.kafka.KafkaClientSettings;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The steady mixed workload of one round: every reference tool in turn, through the agent's outbox
 * ({@link IntentPublisher}) and straight to Kafka, with redeliveries (the same record twice), client retries (the
 * same key under a new message id) and conflicting payloads (the same key with other arguments). Also the
 * message-level faults: forced re-delivery of records already sent, 64 concurrent deliveries of one key, poison.
 * Every message is remembered as a {@link SentCall}; the oracle judges them after quiescence.
 */
public final class Workload implements AutoCloseable {
    private final String jdbcUrl;
    private final KafkaProducer<byte[], byte[]> producer;
    private final IntentPublisher publisher;
    private final Intents intents;
    private final Sagas sagas;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "chaos-workload"));
    private final long periodMillis;
    private final Map<String, SentCall> sent = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> extraDeliveries = new ConcurrentHashMap<>();
    private final Deque<ProducerRecord<byte[], byte[]>> recentRecords = new ArrayDeque<>();
    private final AtomicLong seq = new AtomicLong();
    private volatile String tenant;
    private ScheduledFuture<?> ticks;
    private Connection connection;

    /**
     * @param callsPerSecond calls started per second (a call may send more than one message)
     * @param withSagas      whether one tick in 16 submits a saga instead of a single call (not against the naive
     *                       executor, which knows neither dry runs nor compensations)
     * @param kafka          what the producer adds to its own settings (security)
     * @param keyring        the agents' key its intents, compensations and task events are signed with
     */
    public Workload(String jdbcUrl, String kafkaBootstrap, KafkaClientSettings kafka, int callsPerSecond,
                    boolean withSagas, Keyring keyring) {
        this.jdbcUrl = jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "connectTimeout=2&socketTimeout=10";
        this.publisher = new IntentPublisher("agent", Contract.INTENTS_TOPIC, "/agents/chaos", keyring);
        this.intents = new Intents(keyring);
        this.sagas = withSagas ? new Sagas(this.jdbcUrl, keyring) : null;
        this.periodMillis = Math.max(1, 1000 / Math.max(1, callsPerSecond));
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "2");
        // A broker restart costs time, not messages: records wait in the producer while it is down.
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "240000");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");
        // back-offs as short as the services' (an agent on the starter has them too): a broker kill's recovery is
        // then the stack's, not this producer's
        KafkaClientDefaults.withQuickReconnect(p);
        producer = new KafkaProducer<>(kafka.with(p), new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Starts the steady calls of {@code roundTenant}. */
    public synchronized void begin(String roundTenant) {
        tenant = roundTenant;
        extraDeliveries.put(roundTenant, new AtomicLong());
        synchronized (recentRecords) {
            recentRecords.clear();
        }
        ticks = loop.scheduleWithFixedDelay(this::tick, 0, periodMillis, TimeUnit.MILLISECONDS);
    }

    /** Stops the steady calls and waits until every Kafka send has an answer from the producer. */
    public synchronized void end() {
        ticks.cancel(false);
        try {
            loop.submit(() -> { }).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the workload did not stop", e);
        }
        producer.flush();
    }

    /** Every message sent for {@code roundTenant}. */
    public List<SentCall> sent(String roundTenant) {
        return sent.values().stream().filter(c -> c.tenant().equals(roundTenant)).toList();
    }

    /** Records delivered again under a message id already delivered (redeliveries and forced duplicates). */
    public long extraDeliveries(String roundTenant) {
        AtomicLong n = extraDeliveries.get(roundTenant);
        return n == null ? 0 : n.get();
    }

    private void tick() {
        long n = seq.incrementAndGet();
        int tool = (int) (n % 4);
        ToolIntent intent = intents.intent(tenant, n, tool, 0);
        if (sagas != null && n % 16 == 5) {
            saga(n);
            return;
        }
        switch ((int) (n % 8)) {
            case 0, 4 -> outbox(intent);
            case 2 -> {
                ProducerRecord<byte[], byte[]> r = kafka(intent, Kind.KAFKA);
                resend(r); // a redelivery: the same record, the same message id
            }
            case 3 -> {
                kafka(intent, Kind.KAFKA);
                kafka(intent, Kind.CLIENT_RETRY);
            }
            case 7 -> {
                kafka(intent, Kind.KAFKA);
                kafka(intents.intent(tenant, n, tool, 1), Kind.CONFLICT);
            }
            default -> kafka(intent, Kind.KAFKA);
        }
    }

    private ProducerRecord<byte[], byte[]> kafka(ToolIntent intent, Kind kind) {
        return kafka(intent, kind, UUID.randomUUID().toString());
    }

    /** Produces {@code intent} under message id {@code id}; the call is judged only if the producer took it. */
    private ProducerRecord<byte[], byte[]> kafka(ToolIntent intent, Kind kind, String id) {
        ProducerRecord<byte[], byte[]> r = intents.record(intent, id);
        sent.put(id, new SentCall(id, intent.tenantId(), opIdOf(intent), kind, System.nanoTime(), false));
        try {
            producer.send(r, (meta, e) -> {
                if (e != null) {
                    sent.computeIfPresent(id, (k, c) -> c.doubtful());
                }
            });
        } catch (RuntimeException e) {
            sent.remove(id); // not handed over at all (the broker was unknown for max.block.ms): nothing to judge
            return r;
        }
        synchronized (recentRecords) {
            recentRecords.addLast(r);
            while (recentRecords.size() > 200) {
                recentRecords.removeFirst();
            }
        }
        return r;
    }

    private void resend(ProducerRecord<byte[], byte[]> r) {
        try {
            producer.send(new ProducerRecord<>(r.topic(), null, r.key(), r.value(), r.headers()));
            extraDeliveries.computeIfAbsent(tenant, t -> new AtomicLong()).incrementAndGet();
        } catch (RuntimeException e) {
            // not handed over: nothing was duplicated
        }
    }

    private void outbox(ToolIntent intent) {
        String id = null;
        try {
            Connection c = connection();
            id = publisher.publish(c, intent);
            SentCall call = new SentCall(id, intent.tenantId(), opIdOf(intent), Kind.OUTBOX, System.nanoTime(), false);
            try {
                c.commit();
                sent.put(id, call);
            } catch (SQLException e) {
                sent.put(id, call.doubtful()); // the commit may have happened: the oracle looks for the step
                closeConnection();
            }
        } catch (SQLException | RuntimeException e) {
            closeConnection(); // not committed: PostgreSQL is down or restarting
        }
    }

    private void saga(long n) {
        try {
            sagas.submit(tenant, n);
        } catch (RuntimeException e) {
            // PostgreSQL is down or restarting: the task may or may not exist, and the oracle judges those it finds
        }
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            connection = DriverManager.getConnection(jdbcUrl, "postgres", "");
            connection.setAutoCommit(false);
        }
        return connection;
    }

    private void closeConnection() {
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException ignored) {
            // broken anyway
        }
        connection = null;
    }

    private static String opIdOf(ToolIntent intent) {
        return intent.arguments().path("opId").asString();
    }

    // ------------------------------------------------------------------ message-level faults

    /**
     * Forced duplicate delivery: the last {@code n} records of this round produced again, with their message ids.
     *
     * @return how many were produced again
     */
    public int redeliverRecent(int n) {
        List<ProducerRecord<byte[], byte[]>> again;
        synchronized (recentRecords) {
            again = new ArrayList<>(recentRecords);
        }
        again = again.subList(Math.max(0, again.size() - n), again.size());
        again.forEach(this::resend);
        producer.flush();
        return again.size();
    }

    /**
     * The same key and payload delivered {@code n} times at once, each under its own message id, from 8 threads.
     *
     * @return the messages handed over
     */
    public int concurrent(int n) throws InterruptedException {
        long callSeq = seq.incrementAndGet();
        ToolIntent intent = intents.intent(tenant, callSeq, 3, 0); // counter: the tool that deduplicates nothing
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(8, r -> daemon(r, "chaos-concurrent"));
        AtomicLong handed = new AtomicLong();
        for (int i = 0; i < n; i++) {
            pool.submit(() -> {
                start.await();
                kafka(intent, Kind.CONCURRENT);
                handed.incrementAndGet();
                return null;
            });
        }
        start.countDown();
        pool.shutdown();
        pool.awaitTermination(60, TimeUnit.SECONDS);
        producer.flush();
        return (int) handed.get();
    }

    /**
     * One more call of this round on tool {@code toolIndex} ({@link Intents} order: payments, tickets, email,
     * counter), produced straight to Kafka now.
     *
     * @return the call as sent, or null when the producer did not take it
     */
    public SentCall call(int toolIndex) {
        return sendNow(intents.intent(tenant, seq.incrementAndGet(), toolIndex, 0), Kind.KAFKA);
    }

    /**
     * The compensation request of {@code original}, a call of this round on tool {@code toolIndex}.
     *
     * @return the request as sent, or null when the producer did not take it
     */
    public SentCall compensate(SentCall original, int toolIndex) {
        return sendNow(intents.compensation(tenant, Intents.seqOf(original.opId()), toolIndex), Kind.COMPENSATION);
    }

    private SentCall sendNow(ToolIntent intent, Kind kind) {
        String id = UUID.randomUUID().toString();
        kafka(intent, kind, id);
        producer.flush();
        return sent.get(id);
    }

    /** A call sent twice under two keys would not be a conflict: one more call of this round, then its conflict. */
    public int conflict() {
        long callSeq = seq.incrementAndGet();
        kafka(intents.intent(tenant, callSeq, 0, 0), Kind.KAFKA);
        kafka(intents.intent(tenant, callSeq, 0, 7), Kind.CONFLICT);
        producer.flush();
        return 1;
    }

    /**
     * Poison mixed into the stream: malformed JSON, a schema violation, a body id other than {@code ce_id}.
     *
     * @return the keys of the records produced; the DLQ must hold each
     */
    public List<String> poison(int n) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ProducerRecord<byte[], byte[]> r = intents.poison(tenant, i, UUID.randomUUID().toString());
            producer.send(r);
            keys.add(new String(r.key(), StandardCharsets.UTF_8));
        }
        producer.flush();
        return keys;
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    @Override
    public void close() {
        loop.shutdownNow();
        producer.close();
        closeConnection();
    }
}
