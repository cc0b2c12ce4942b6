package dev.toolonce.chaos.workload;

import dev.toolonce.messaging.KafkaClientDefaults;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.security.kafka.KafkaClientSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the results topic and the intents' dead-letter topic from their current end, outside any consumer group,
 * and remembers the first answer to each intent message of this run (by {@code intentMessageId}) with the time it
 * arrived, and the keys of dead-lettered records. Survives broker restarts (the client reconnects by itself).
 */
public final class ResultsWatch implements AutoCloseable {

    /** The first answer to one intent message. */
    public record Answer(String status, String errorCode, boolean replayed, long arrivedNanos) {
    }

    /** One result's arrival, for recovery times. */
    public record Arrival(String intentMessageId, long nanos) {
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String tenantPrefix;
    private final EventCodec codec = new EventCodec();
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Arrival> arrivals = new ConcurrentLinkedQueue<>();
    private final Set<String> deadLettered = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean running = true;

    /** @param kafka what the consumer adds to its own settings (security) */
    public ResultsWatch(String bootstrap, KafkaClientSettings kafka, String tenantPrefix) {
        this.tenantPrefix = tenantPrefix;
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "toolonce-chaos-" + UUID.randomUUID());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "20");
        // back-offs as short as the services': a broker kill's recovery is then the stack's, not this watch's
        KafkaClientDefaults.withQuickReconnect(p);
        consumer = new KafkaConsumer<>(kafka.with(p), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : List.of(Contract.RESULTS_TOPIC, Contract.INTENTS_DLQ_TOPIC)) {
            consumer.partitionsFor(topic).forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
        thread = new Thread(this::loop, "chaos-results");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        try {
            while (running) {
                var records = consumer.poll(Duration.ofMillis(100));
                long now = System.nanoTime();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    if (r.topic().equals(Contract.RESULTS_TOPIC)) {
                        result(r, now);
                    } else if (r.key() != null) {
                        String key = new String(r.key(), StandardCharsets.UTF_8);
                        if (key.startsWith(tenantPrefix)) {
                            deadLettered.add(key);
                        }
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    private void result(ConsumerRecord<byte[], byte[]> record, long now) {
        ToolResult r;
        try {
            r = codec.result(codec.parse(record.value()));
        } catch (RuntimeException e) {
            return; // not ours to judge: the consumer's DLQ handles unreadable results
        }
        if (r.tenantId() == null || !r.tenantId().startsWith(tenantPrefix)) {
            return;
        }
        answers.putIfAbsent(r.intentMessageId(), new Answer(r.status().name(),
                r.error() == null ? null : r.error().code(), r.replayed(), now));
        arrivals.add(new Arrival(r.intentMessageId(), now));
    }

    /** The first answer to {@code intentMessageId}, or null. */
    public Answer answer(String intentMessageId) {
        return answers.get(intentMessageId);
    }

    /** Every result of this run so far, in arrival order. */
    public List<Arrival> arrivals() {
        return List.copyOf(arrivals);
    }

    /** Whether a record with {@code key} reached the intents' dead-letter topic. */
    public boolean deadLettered(String key) {
        return deadLettered.contains(key);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(5000);
    }
}
