package dev.toolonce.relay;

import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.core.ConditionTimeoutException;

/** Reads a topic from its beginning (no consumer group) and keeps every record seen. */
final class TopicReader implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();
    private final Set<String> ids = new HashSet<>();
    private final String topic;

    TopicReader(String bootstrap, String topic) {
        this.topic = topic;
        this.consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 4 * 1024 * 1024),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /**
     * Polls until {@code done} holds for everything seen so far.
     *
     * @return everything seen (a copy)
     * @throws AssertionError when {@code timeout} passes first
     */
    List<ConsumerRecord<byte[], byte[]>> readUntil(Predicate<List<ConsumerRecord<byte[], byte[]>>> done, Duration timeout) {
        try {
            // same thread: the consumer is single-threaded, and a late poll must not race the caller
            await().atMost(timeout).pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ZERO)
                    .until(() -> {
                        if (done.test(seen)) {
                            return true;
                        }
                        pollOnce();
                        return done.test(seen);
                    });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("topic " + topic + ": condition not met within " + timeout + " after "
                    + seen.size() + " records", e);
        }
        return List.copyOf(seen);
    }

    private void pollOnce() {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
            seen.add(record);
            Header id = record.headers().lastHeader("ce_id");
            if (id != null) {
                ids.add(new String(id.value(), StandardCharsets.UTF_8));
            }
        }
    }

    /** Polls until every one of {@code expected} (ce_id values) has been seen. */
    void readUntilIds(Collection<String> expected, Duration timeout) {
        readUntil(s -> ids.containsAll(expected), timeout);
    }

    /** Polls until at least one record satisfies {@code match}. */
    void readUntilAny(Predicate<ConsumerRecord<byte[], byte[]>> match, Duration timeout) {
        readUntil(s -> s.stream().anyMatch(match), timeout);
    }

    List<ConsumerRecord<byte[], byte[]>> seen() {
        return List.copyOf(seen);
    }

    @Override
    public void close() {
        consumer.close();
    }
}
