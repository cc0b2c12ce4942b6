package dev.toolonce.demo;

import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ToolResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the results topic from the beginning, outside any consumer group, and keeps the results of one
 * tenant by the intent message they answer (duplicates on the topic are kept too, for counting).
 */
final class ResultCollector implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final EventCodec codec = new EventCodec();
    private final String tenant;
    final Map<String, List<ToolResult>> byIntent = new HashMap<>();
    int records;
    int deadLettered;

    ResultCollector(String bootstrap, String tenant) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "demo-verifier-" + UUID.randomUUID());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        this.consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : List.of(Contract.RESULTS_TOPIC, Contract.INTENTS_DLQ_TOPIC)) {
            consumer.partitionsFor(topic).forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        this.tenant = tenant;
    }

    void poll(Duration wait) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(wait)) {
            if (r.topic().equals(Contract.INTENTS_DLQ_TOPIC)) {
                String key = r.key() == null ? "" : new String(r.key(), java.nio.charset.StandardCharsets.UTF_8);
                deadLettered += key.startsWith(tenant + "/malformed-") ? 1 : 0;
                continue;
            }
            ToolResult result = codec.result(codec.parse(r.value()));
            if (tenant.equals(result.tenantId())) {
                records++;
                byIntent.computeIfAbsent(result.intentMessageId(), k -> new ArrayList<>()).add(result);
            }
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
