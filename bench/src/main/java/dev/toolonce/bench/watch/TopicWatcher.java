package dev.toolonce.bench.watch;

import dev.toolonce.bench.BenchTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads one topic from its current end, outside any consumer group, on its own thread, and remembers when
 * each record of interest was first received ({@link System#nanoTime()} right after the poll returned it).
 * Fetches are answered within 5 ms ({@code fetch.max.wait.ms}) so that the consumer adds little to the
 * latency it measures. Positions are fixed before {@link #start()} returns: nothing sent afterwards is missed.
 */
public final class TopicWatcher implements AutoCloseable {

    /** Picks the records a phase counts. */
    @FunctionalInterface
    public interface Reader {
        /** @return the record's id and label, or null to ignore the record */
        Reading read(ConsumerRecord<byte[], byte[]> record);
    }

    /** @param id what the phase matches the record by; @param label a tally key (e.g. a status), may be null */
    public record Reading(String id, String label) {
    }

    /** The first sighting of an id. */
    public record Seen(long nanos, String label) {
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Reader reader;
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();
    private final AtomicLong duplicates = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    /** @param target the stack: its bootstrap servers and the bench's Kafka client settings */
    public TopicWatcher(BenchTarget target, String topic, Reader reader) {
        Properties p = new Properties();
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "toolonce-bench-" + UUID.randomUUID());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "5");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        this.consumer = new KafkaConsumer<>(target.kafkaClient(p), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.reader = reader;
        List<TopicPartition> partitions = new ArrayList<>();
        consumer.partitionsFor(topic).forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
        this.thread = new Thread(this::loop, "bench-watch-" + topic);
        thread.setDaemon(true);
    }

    /** Starts polling. */
    public TopicWatcher start() {
        thread.start();
        return this;
    }

    private void loop() {
        try {
            while (running) {
                var records = consumer.poll(Duration.ofMillis(100));
                long now = System.nanoTime();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    Reading reading = reader.read(r);
                    if (reading != null && seen.putIfAbsent(reading.id(), new Seen(now, reading.label())) != null) {
                        duplicates.incrementAndGet();
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    /** The first sighting of {@code id}, or null. */
    public Seen seen(String id) {
        return seen.get(id);
    }

    /** How many of {@code ids} have been seen. */
    public long seenOf(Collection<String> ids) {
        return ids.stream().filter(seen::containsKey).count();
    }

    /** Records of interest received again after their first sighting. */
    public long duplicates() {
        return duplicates.get();
    }

    /**
     * Waits until every id was seen or {@code timeout} passed, printing progress every 2 s.
     *
     * @return how many were seen
     */
    public long awaitAll(Collection<String> ids, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long nextPrint = System.nanoTime() + 2_000_000_000L;
        long count = seenOf(ids);
        while (count < ids.size() && System.nanoTime() < deadline) {
            Thread.sleep(50); // the sightings are timed by the polling thread; this only decides when to stop
            count = seenOf(ids);
            if (System.nanoTime() > nextPrint) {
                System.out.printf("    %s: %d/%d received%n", what, count, ids.size());
                nextPrint += 2_000_000_000L;
            }
        }
        return count;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(5000);
    }
}
