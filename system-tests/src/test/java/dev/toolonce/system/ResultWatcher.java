package dev.toolonce.system;

import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ToolResult;
import java.time.Duration;
import java.time.Instant;
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

/** Reads a topic from the beginning (no consumer group offsets) and keeps every record it saw. */
final class ResultWatcher implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final EventCodec codec = new EventCodec();
    final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    final Map<String, List<ToolResult>> byIntent = new ConcurrentHashMap<>();

    ResultWatcher(String bootstrap, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
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

    /** Polls until the condition holds over what was seen, or the timeout passes. */
    void awaitRecords(Predicate<ResultWatcher> done, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (!done.test(this) && Instant.now().isBefore(deadline)) {
            pollOnce(Duration.ofMillis(200));
        }
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
