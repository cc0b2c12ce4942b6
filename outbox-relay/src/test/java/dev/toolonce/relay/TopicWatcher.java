package dev.toolonce.relay;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a topic from its beginning on its own thread (no consumer group, so it rides through a
 * broker restart) and records when each {@code ce_id} was first seen ({@link System#nanoTime()})
 * and how many records carried it.
 */
final class TopicWatcher implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, Long> firstSeenNanos = new ConcurrentHashMap<>();
    private final Map<String, Integer> copies = new ConcurrentHashMap<>();
    private final AtomicLong records = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    TopicWatcher(String bootstrap, String topic) {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(this::loop, "topic-watcher-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        while (running) {
            try {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    records.incrementAndGet();
                    Header id = record.headers().lastHeader("ce_id");
                    if (id != null) {
                        String ceId = new String(id.value(), StandardCharsets.UTF_8);
                        firstSeenNanos.putIfAbsent(ceId, System.nanoTime());
                        copies.merge(ceId, 1, Integer::sum);
                    }
                }
            } catch (RuntimeException e) {
                if (running) {
                    System.err.println("[TopicWatcher] poll failed (broker down?): " + e);
                }
            }
        }
    }

    boolean seenAll(Set<String> ids) {
        return firstSeenNanos.keySet().containsAll(ids);
    }

    /** When {@code id} was first seen, or -1. */
    long firstSeen(String id) {
        return firstSeenNanos.getOrDefault(id, -1L);
    }

    /** The earliest first-seen time among ids not in {@code before} and seen after {@code nanos}, or -1. */
    long firstNewRecordAfter(long nanos) {
        return firstSeenNanos.values().stream().filter(t -> t > nanos).mapToLong(Long::longValue).min().orElse(-1);
    }

    Set<String> missing(Set<String> ids) {
        return ids.stream().filter(id -> !firstSeenNanos.containsKey(id)).collect(java.util.stream.Collectors.toSet());
    }

    /** Records read, distinct ids, ids seen more than once. */
    String summary() {
        Map<String, Integer> dup = new HashMap<>();
        copies.forEach((k, v) -> {
            if (v > 1) {
                dup.put(k, v);
            }
        });
        return "records=" + records.get() + " distinct_ids=" + firstSeenNanos.size() + " ids_delivered_more_than_once="
                + dup.size();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(10_000);
        consumer.close();
    }
}
