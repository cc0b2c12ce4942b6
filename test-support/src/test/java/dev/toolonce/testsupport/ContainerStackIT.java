package dev.toolonce.testsupport;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

/**
 * The container stack is real: PostgreSQL and Kafka started by Testcontainers in podman containers of the images
 * built here, answering on the published ports. Runs with {@code -Pcontainers} only.
 */
class ContainerStackIT {

  private static final ContainerStack stack = ContainerStack.get();
  private static final String SLOT = "container_it_" + UUID.randomUUID().toString().substring(0, 8);

  @AfterAll
  static void dropSlot() throws SQLException {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute("select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = '"
          + SLOT + "'");
    }
    System.out.println("[ContainerStackIT] stack started in " + stack.startMillis() + " ms: "
        + stack.containerNames());
  }

  @Test
  void theContainersRunUnderPodmanFromTheImagesBuiltHere() {
    var docker = DockerClientFactory.instance().client();
    var version = docker.versionCmd().exec();
    assertTrue(version.getComponents().stream().anyMatch(c -> c.getName().contains("Podman")),
        "the Docker API is not podman's: " + version.getComponents());
    List<String> images = new ArrayList<>();
    for (String name : stack.containerNames()) {
      var inspected = docker.inspectContainerCmd(name).exec();
      assertTrue(inspected.getState().getRunning(), name + " is not running");
      images.add(inspected.getConfig().getImage());
    }
    assertEquals(List.of(ContainerStack.POSTGRES_IMAGE, ContainerStack.KAFKA_IMAGE), images);
  }

  @Test
  void postgresAnswersWithLogicalWalLevelAndTheToolonceDatabase() throws SQLException {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      assertEquals("logical", one(s, "show wal_level"));
      assertEquals("toolonce", one(s, "select current_database()"));
      assertTrue(one(s, "show server_version").startsWith("15."), one(s, "show server_version"));
      assertEquals("pg_stat_statements", one(s, "show shared_preload_libraries"));
    }
  }

  @Test
  void aLogicalReplicationSlotDecodesAnInsert() throws SQLException {
    String marker = "row-" + UUID.randomUUID();
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute("create table if not exists container_it (id bigserial primary key, note text not null)");
      s.execute("select pg_create_logical_replication_slot('" + SLOT + "', 'test_decoding')");
      s.execute("insert into container_it (note) values ('" + marker + "')");
      List<String> changes = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("select data from pg_logical_slot_get_changes('" + SLOT + "', null, null)")) {
        while (rs.next()) {
          changes.add(rs.getString(1));
        }
      }
      assertTrue(changes.stream().anyMatch(d -> d.startsWith("table public.container_it: INSERT:")
          && d.contains("note[text]:'" + marker + "'")), "no decoded insert of " + marker + " in " + changes);
    }
  }

  @Test
  void aRecordIsProducedAndConsumedOnAFreshTopic() throws Exception {
    TestStack kafka = TestStack.overContainers(stack);
    String topic = kafka.freshTopic("container-it", 1);
    String value = "value-" + UUID.randomUUID();
    try (var producer = new KafkaProducer<String, String>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap(),
        ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer())) {
      producer.send(new ProducerRecord<>(topic, "k", value)).get();
    }
    List<ConsumerRecord<String, String>> seen = new ArrayList<>();
    try (var consumer = new KafkaConsumer<String, String>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap(),
        ConsumerConfig.GROUP_ID_CONFIG, "container-it-" + UUID.randomUUID(),
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new StringDeserializer())) {
      consumer.subscribe(List.of(topic));
      await("the record on " + topic).atMost(Duration.ofSeconds(60))
          .until(() -> {
            consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
            return !seen.isEmpty();
          });
    }
    assertEquals(1, seen.size(), seen.toString());
    assertEquals("k", seen.get(0).key());
    assertEquals(value, seen.get(0).value());
  }

  private static Connection connect() throws SQLException {
    return DriverManager.getConnection(stack.jdbcUrl(), "postgres", "");
  }

  private static String one(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertTrue(rs.next(), sql);
      return rs.getString(1);
    }
  }
}
