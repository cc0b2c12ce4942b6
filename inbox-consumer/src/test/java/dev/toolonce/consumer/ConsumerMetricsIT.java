package dev.toolonce.consumer;

import static dev.toolonce.schemas.PrometheusText.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.agent.task.Plan;
import dev.toolonce.agent.task.StepSpec;
import dev.toolonce.agent.task.TaskEngine;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.TestStack;
import dev.toolonce.testsupport.TestTokens;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The result consumer as an operator sees it (docs/operations.md §3), on a real PostgreSQL and a real Kafka broker:
 * readiness is up with the database and the results listener container as its checks, and after results were
 * applied, delivered twice, refused as poison and answered for no step, {@code /actuator/prometheus} shows each
 * outcome's counter moved, the batch timer and the dead-letter counter too; {@code /consumer/stats} is a view of the
 * same counters.
 */
class ConsumerMetricsIT {
    private static final EventCodec CODEC = new EventCodec();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void resultsMoveTheOutcomeCountersAndReadinessChecksTheDatabaseAndTheListener() throws Exception {
        TestStack stack = TestStack.get();
        String topic = stack.freshTopic("consumer-metrics-results", 1); // one partition: results arrive in order
        String dlq = stack.freshTopic("consumer-metrics-dlq", 1);
        int port = ServiceProcess.freePort();
        try (ConfigurableApplicationContext app = ConsumerApplication.builder().run("--server.port=" + port,
                "--spring.datasource.url=" + stack.freshDatabase("consumer_metrics"),
                "--spring.kafka.bootstrap-servers=" + stack.kafkaBootstrap(),
                "--toolonce.agent.results-topic=" + topic, "--toolonce.agent.dead-letter-topic=" + dlq,
                "--toolonce.agent.consumer-group=consumer-metrics-" + UUID.randomUUID(),
                "--toolonce.security.tokens-file=" + TestTokens.file(),
                "--toolonce.signing.keyring-file=" + TestKeys.file());
             KafkaProducer<byte[], byte[]> producer = producer(stack.kafkaBootstrap())) {
            JsonNode readiness = await("readiness").atMost(Duration.ofSeconds(60))
                    .until(() -> json(port, "/actuator/health/readiness"), r -> "UP".equals(r.path("status").asString()));
            assertThat(readiness.at("/components/agentDatabase/status").asString()).isEqualTo("UP");
            assertThat(readiness.at("/components/resultListener/status").asString()).isEqualTo("UP");
            assertThat(json(port, "/ready").path("status").asString()).isEqualTo("ready");

            app.getBean(TaskEngine.class).submit(Plan.of("acme", "metrics-t1", StepSpec.of("1", "counter", "apply",
                    JsonNodeFactory.instance.objectNode().put("n", 1))));
            Map<String, Object> step = app.getBean(JdbcTemplate.class).queryForMap("SELECT tool, operation, "
                    + "idempotency_key, intent_message_id FROM agent.agent_step WHERE task_id = 'metrics-t1'");
            ToolResult committed = new ToolResult(UUID.randomUUID().toString(), (String) step.get("intent_message_id"),
                    "acme", (String) step.get("tool"), (String) step.get("operation"),
                    (String) step.get("idempotency_key"), "sha256:" + "0".repeat(64), "metrics-t1", "1", 1,
                    ResultStatus.COMMITTED, "c_1", null, null, 1, false, "2026-12-01T00:00:00Z");
            ToolResult forNoStep = new ToolResult(UUID.randomUUID().toString(), UUID.randomUUID().toString(), "acme",
                    "counter", "apply", "no-such-step", "sha256:" + "0".repeat(64), "no-such-task", "1", 1,
                    ResultStatus.COMMITTED, "c_x", null, null, 1, false, "2026-12-01T00:00:00Z");
            send(producer, topic, committed);
            send(producer, topic, committed);
            send(producer, topic, forNoStep);
            producer.send(TestKeys.sign(new ProducerRecord<>(topic, "acme/counter/apply/poison".getBytes(
                    StandardCharsets.UTF_8), "{not json".getBytes(StandardCharsets.UTF_8)), TestKeys.executor())).get();

            String scrape = await("every outcome counted").atMost(Duration.ofSeconds(60)).until(() -> text(port,
                    "/actuator/prometheus"), s -> outcome(s, "applied") >= 1 && outcome(s, "duplicate") >= 1
                    && outcome(s, "not_applied") >= 1
                    && sum(s, "toolonce_consumer_dead_lettered_total", Map.of("consumer", "results")) >= 1);
            System.out.println("[ConsumerMetricsIT] " + String.join("\n[ConsumerMetricsIT] ", scrape.lines()
                    .filter(l -> l.startsWith("toolonce_") && !l.contains("_bucket")).toList()));
            assertThat(outcome(scrape, "applied")).isEqualTo(1);
            assertThat(outcome(scrape, "duplicate")).isEqualTo(1);
            assertThat(outcome(scrape, "not_applied")).isEqualTo(1);
            assertThat(outcome(scrape, "dead_lettered")).as("dead letters are counted once, by the shared error path")
                    .isZero();
            assertThat(sum(scrape, "toolonce_agent_results_batch_seconds_count", Map.of())).isPositive();
            assertThat(sum(scrape, "toolonce_consumer_dead_lettered_total", Map.of("consumer", "results"))).isEqualTo(1);

            JsonNode stats = json(port, "/consumer/stats");
            assertThat(stats.path("applied").asLong()).isEqualTo(1);
            assertThat(stats.path("duplicates").asLong()).isEqualTo(1);
            assertThat(stats.path("notApplied").asLong()).isEqualTo(1);
            assertThat(stats.path("deadLettered").asLong()).isEqualTo(1);
            assertThat(app.getBean(JdbcTemplate.class).queryForObject(
                    "SELECT status FROM agent.agent_step WHERE task_id = 'metrics-t1'", String.class)).isEqualTo("COMMITTED");
        }
    }

    private static double outcome(String scrape, String outcome) {
        return sum(scrape, "toolonce_agent_results_total", Map.of("outcome", outcome));
    }

    private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, ToolResult r) throws Exception {
        ProducerRecord<byte[], byte[]> rec = new ProducerRecord<>(topic, r.recordKey().getBytes(StandardCharsets.UTF_8),
                CODEC.write(r).getBytes(StandardCharsets.UTF_8));
        rec.headers().add(Contract.CE_ID, r.messageId().getBytes(StandardCharsets.UTF_8));
        producer.send(TestKeys.sign(rec, TestKeys.executor())).get();
    }

    private static JsonNode json(int port, String path) throws Exception {
        return JSON.readTree(text(port, path));
    }

    private static String text(int port, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", TestTokens.adminHeader())
                .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
