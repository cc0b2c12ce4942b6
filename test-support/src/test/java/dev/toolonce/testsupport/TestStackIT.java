package dev.toolonce.testsupport;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
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

class TestStackIT {

  private final TestStack stack = TestStack.get();

  @Test
  void freshDatabaseAcceptsConnectionsAndWalLevelIsLogical() throws Exception {
    String url = stack.freshDatabase("stackit");
    assertTrue(url.startsWith("jdbc:postgresql://127.0.0.1:" + stack.pgPort() + "/stackit_"), url);
    try (Connection c = DriverManager.getConnection(url, "postgres", "");
         Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("select 1")) {
        assertTrue(rs.next());
        assertEquals(1, rs.getInt(1));
      }
      try (ResultSet rs = s.executeQuery("SHOW wal_level")) {
        assertTrue(rs.next());
        assertEquals("logical", rs.getString(1));
      }
    }
  }

  @Test
  void recordRoundTripsThroughTheBroker() {
    String topic = stack.freshTopic("stackit", 3);
    String value = "hello-" + UUID.randomUUID();
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap(),
        ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
      producer.send(new ProducerRecord<>(topic, "k", value)).get();
    } catch (Exception e) {
      throw new AssertionError("send failed", e);
    }
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap(),
        ConsumerConfig.GROUP_ID_CONFIG, "stackit-" + UUID.randomUUID(),
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
      consumer.subscribe(List.of(topic));
      List<ConsumerRecord<String, String>> received = new ArrayList<>();
      await("a record from " + topic).atMost(Duration.ofSeconds(30))
          .pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ZERO)
          .until(() -> {
            consumer.poll(Duration.ofMillis(500)).forEach(received::add);
            return !received.isEmpty();
          });
      assertEquals("k", received.get(0).key());
      assertEquals(value, received.get(0).value());
    }
  }

  @Test
  void serviceProcessStartsOnTheTestClasspathAndDiesOnKill9() {
    int port = ServiceProcess.freePort();
    try (ServiceProcess p = ServiceProcess.start("http-ok", HttpOkMain.class.getName(),
        Map.of("FLAVOR", "itest"), List.of(String.valueOf(port)))) {
      p.awaitHttpOk("http://127.0.0.1:" + port + "/ready", Duration.ofSeconds(30));
      assertTrue(p.isAlive());
      assertTrue(p.logTail(5).contains("FLAVOR=itest"), p.logTail(5));
      p.kill9();
      assertFalse(p.isAlive());
    }
  }
}
