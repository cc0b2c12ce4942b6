package dev.toolonce.testsupport;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The crash helpers really crash, and what was committed or acknowledged before survives the restart. */
class InfraFaultsIT {

  private final TestStack stack = TestStack.get();

  @Test
  void postgresKilledWithSigkillDropsConnectionsAndComesBackWithCommittedRows() throws Exception {
    String url = stack.freshDatabase("faultsit");
    try (Connection c = DriverManager.getConnection(url, "postgres", "");
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (v text); INSERT INTO t VALUES ('before the crash')");
      try {
        stack.killPostgres();
        assertThrows(SQLException.class, () -> s.executeQuery("select 1"));
      } finally {
        stack.startPostgres();
      }
    }
    try (Connection c = DriverManager.getConnection(url, "postgres", "");
         Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT v FROM t")) {
      assertTrue(rs.next());
      assertEquals("before the crash", rs.getString(1));
    }
    stack.restartPostgres();
    try (Connection c = DriverManager.getConnection(url, "postgres", "");
         Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
      assertTrue(rs.next());
      assertEquals(1, rs.getInt(1));
    }
  }

  @Test
  void kafkaKilledWithSigkillComesBackWithAcknowledgedRecords() throws Exception {
    String topic = stack.freshTopic("faultsit", 1);
    String value = "acked-" + UUID.randomUUID();
    try (KafkaProducer<String, String> producer = producer()) {
      producer.send(new ProducerRecord<>(topic, "k", value)).get();
    }
    try {
      stack.killKafka();
      assertFalse(LocalStack.kafkaAnswers(stack.kafkaBootstrap().substring(stack.kafkaBootstrap().indexOf(':') + 1)));
    } finally {
      stack.startKafka();
    }
    stack.restartKafka();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap(),
        ConsumerConfig.GROUP_ID_CONFIG, "faultsit-" + UUID.randomUUID(),
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
      consumer.subscribe(List.of(topic));
      List<String> seen = new ArrayList<>();
      await("the acknowledged record").atMost(Duration.ofSeconds(60)).until(() -> {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
          seen.add(r.value());
        }
        return !seen.isEmpty();
      });
      assertEquals(List.of(value), seen);
    }
  }

  private KafkaProducer<String, String> producer() {
    return new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap(),
        ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
  }
}
