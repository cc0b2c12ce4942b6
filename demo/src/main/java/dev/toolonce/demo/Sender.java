package dev.toolonce.demo;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.agent.publish.IntentRecords;
import dev.toolonce.schemas.Contract;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Sends the workload: through {@link IntentPublisher} (agent outbox, one transaction each) or straight to Kafka. */
final class Sender implements AutoCloseable {
    private final KafkaProducer<byte[], byte[]> producer;
    private final Connection db;
    private final IntentPublisher publisher;
    private final IntentRecords records;

    Sender(DemoConfig config) throws SQLException {
        this.publisher = new IntentPublisher("agent", Contract.INTENTS_TOPIC, "/toolonce/demo-agent", config.keyring());
        this.records = new IntentRecords("/toolonce/demo-direct", config.keyring());
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafkaBootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        this.db = DriverManager.getConnection(config.pgUrl(), "postgres", "");
        db.setAutoCommit(false);
    }

    /** @return the message id the intent travels under */
    String send(Workload.Planned planned) throws Exception {
        if (planned.route() == Workload.Route.PUBLISHER) {
            String id = publisher.publish(db, planned.intent());
            db.commit();
            return id;
        }
        String id = UUID.randomUUID().toString();
        ProducerRecord<byte[], byte[]> record = records.record(planned.intent(), id);
        producer.send(record).get();
        if (planned.redeliver()) {
            producer.send(records.record(planned.intent(), id)).get();
        }
        return id;
    }

    void sendRaw(String key, byte[] value) throws Exception {
        producer.send(new ProducerRecord<>(Contract.INTENTS_TOPIC, key.getBytes(StandardCharsets.UTF_8), value)).get();
    }

    @Override
    public void close() throws SQLException {
        producer.close();
        db.close();
    }
}
