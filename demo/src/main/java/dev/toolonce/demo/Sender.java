package dev.toolonce.demo;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ToolIntent;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
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
    private final IntentPublisher publisher =
            new IntentPublisher("agent", Contract.INTENTS_TOPIC, "/toolonce/demo-agent");
    private final EventCodec codec = new EventCodec();

    Sender(DemoConfig config) throws SQLException {
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
        ToolIntent intent = planned.intent().withMessageId(id);
        ProducerRecord<byte[], byte[]> record = record(intent.recordKey(), codec.write(intent), id);
        producer.send(record).get();
        if (planned.redeliver()) {
            producer.send(record(intent.recordKey(), codec.write(intent), id)).get();
        }
        return id;
    }

    void sendRaw(String key, byte[] value) throws Exception {
        producer.send(new ProducerRecord<>(Contract.INTENTS_TOPIC, key.getBytes(StandardCharsets.UTF_8), value)).get();
    }

    private static ProducerRecord<byte[], byte[]> record(String key, String json, String id) {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(Contract.INTENTS_TOPIC,
                key.getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8));
        header(r, Contract.CE_SPECVERSION, "1.0");
        header(r, Contract.CE_ID, id);
        header(r, Contract.CE_TYPE, Contract.INTENT_TYPE);
        header(r, Contract.CE_SOURCE, "/toolonce/demo-direct");
        header(r, Contract.CE_TIME, Instant.now().toString());
        header(r, Contract.CE_SUBJECT, key);
        header(r, Contract.CONTENT_TYPE, "application/json");
        return r;
    }

    private static void header(ProducerRecord<byte[], byte[]> r, String name, String value) {
        r.headers().add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() throws SQLException {
        producer.close();
        db.close();
    }
}
