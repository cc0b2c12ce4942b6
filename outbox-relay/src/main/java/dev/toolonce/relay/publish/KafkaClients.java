package dev.toolonce.relay.publish;

import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.toolonce.messaging.KafkaClientDefaults;
import dev.toolonce.relay.config.RelayProperties;

/**
 * The relay's Kafka clients: one idempotent producer shared by all sources ({@code acks=all},
 * byte arrays, {@code linger.ms=1}) and one admin client for topic checks, both with the security settings of
 * {@code toolonce.relay.kafka-properties} (SASL, TLS) — no longer a hard-coded map only. A row naming a
 * missing topic is dead-lettered once the send timed out waiting for its metadata, unless the
 * broker creates topics on demand ({@code auto.create.topics.enable}, which a producer cannot
 * switch off for itself).
 */
@Configuration(proxyBeanMethods = false)
public class KafkaClients {

    /** Headroom above max-record-bytes so that Kafka, not the producer, judges borderline sizes. */
    static final int REQUEST_HEADROOM = 64 * 1024;
    /** How long a send waits for a topic's metadata before it counts as possibly missing. */
    static final int MAX_BLOCK_MS = 5_000;

    @Bean(destroyMethod = "close")
    public Producer<byte[], byte[]> relayProducer(RelayProperties props) {
        return new KafkaProducer<>(producerConfig(props), new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Bean(destroyMethod = "close")
    public Admin relayAdmin(RelayProperties props) {
        return Admin.create(adminConfig(props));
    }

    @Bean
    public TopicProbe topicProbe(Admin relayAdmin) {
        return new TopicProbe(relayAdmin);
    }

    @Bean
    public Clock relayClock() {
        return Clock.systemUTC();
    }

    /**
     * The admin client's settings: {@code kafka-properties} (security), then the relay's own, then the quick back-offs
     * of {@link KafkaClientDefaults} unless {@code kafka-properties} set back-offs.
     */
    static Map<String, Object> adminConfig(RelayProperties props) {
        Map<String, Object> config = new HashMap<>(props.kafkaProperties());
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, props.kafkaBootstrap());
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "toolonce-relay-admin");
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
        return KafkaClientDefaults.withQuickReconnect(config);
    }

    /**
     * The producer's settings: {@code kafka-properties} first (what a secured broker needs), then the relay's own,
     * which {@link RelayProperties} keeps {@code kafka-properties} from touching, then the quick back-offs of
     * {@link KafkaClientDefaults} unless {@code kafka-properties} set back-offs.
     */
    static Map<String, Object> producerConfig(RelayProperties props) {
        Map<String, Object> config = new HashMap<>(props.kafkaProperties());
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, props.kafkaBootstrap());
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "toolonce-relay");
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        config.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, (int) props.maxRecordBytes().toBytes() + REQUEST_HEADROOM);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, MAX_BLOCK_MS);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        // forget a topic named by a bad row after 30 s instead of 5 min of metadata retries
        config.put(ProducerConfig.METADATA_MAX_IDLE_CONFIG, 30_000);
        return KafkaClientDefaults.withQuickReconnect(config);
    }
}
