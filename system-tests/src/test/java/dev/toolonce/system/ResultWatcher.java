package dev.toolonce.system;

import static org.awaitility.Awaitility.await;

import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ToolResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.core.ConditionTimeoutException;

/** Reads a topic from the beginning (no consumer group offsets) and keeps every record it saw. */
final class ResultWatcher implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final EventCodec codec = new EventCodec();
    final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    final Map<String, List<ToolResult>> byIntent = new ConcurrentHashMap<>();

    ResultWatcher(String bootstrap, String topic) {
        this(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), topic);
    }

    /** @param client the consumer's connection settings: bootstrap servers and, for a secured broker, its security */
    ResultWatcher(Map<String, Object> client, String topic) {
        Properties p = new Properties();
        p.putAll(client);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "test-watcher-" + UUID.randomUUID());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> parts = consumer.partitionsFor(topic).stream()
                .map(i -> new TopicPartition(topic, i.partition())).toList();
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
    }

    /** Results topic: polls until {@code intentMessageId} has a result or the timeout passes. */
    List<ToolResult> awaitResult(String intentMessageId, Duration timeout) {
        awaitRecords(r -> byIntent.containsKey(intentMessageId), timeout);
        return byIntent.getOrDefault(intentMessageId, List.of());
    }

    /**
     * Polls until the condition holds over what was seen, or the timeout passes. Does not fail on timeout:
     * callers assert on what was seen.
     */
    void awaitRecords(Predicate<ResultWatcher> done, Duration timeout) {
        try {
            // same thread: the consumer is single-threaded, and a late poll must not race the caller
            await().atMost(timeout).pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ZERO)
                    .until(() -> {
                        if (done.test(this)) {
                            return true;
                        }
                        pollOnce(Duration.ofMillis(200));
                        return done.test(this);
                    });
        } catch (ConditionTimeoutException timedOut) {
            // by contract: the caller's assertions on what was seen report the failure
        }
    }

    /** Keeps polling for {@code period} so that late records (e.g. duplicates) have a chance to show up. */
    void settle(Duration period) {
        await("settle for " + period).during(period).atMost(period.plusSeconds(10))
                .pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ZERO)
                .until(() -> {
                    pollOnce(Duration.ofMillis(200));
                    return true;
                });
    }

    void pollOnce(Duration wait) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(wait)) {
            records.add(r);
            try {
                ToolResult result = codec.result(codec.parse(r.value()));
                byIntent.computeIfAbsent(result.intentMessageId(), k -> new ArrayList<>()).add(result);
            } catch (RuntimeException notAResult) {
                // DLQ topics hold arbitrary bytes; they are inspected through records.
            }
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
