package dev.toolonce.boot.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.agent.results.ResultHandler;
import dev.toolonce.agent.results.ResultListener;
import dev.toolonce.agent.task.Plan;
import dev.toolonce.agent.task.PlanRefusedException;
import dev.toolonce.agent.task.StepSpec;
import dev.toolonce.agent.task.TaskEngine;
import dev.toolonce.agent.task.TaskState;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.testsupport.AgentMigrationScripts;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.TestStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Issue 10, test 7 (and test 4 through Kafka): the starter in a minimal Spring Boot application on a real PostgreSQL
 * and a real Kafka broker — the beans are there, the agent's migrations ran, a result produced to the results topic
 * reaches the application's handler and its event listener, and a result delivered twice and replayed under a new
 * message id advances a task once.
 */
class StarterIT {
    private static final EventCodec CODEC = new EventCodec();
    private static ConfigurableApplicationContext app;
    private static String topic;
    private static KafkaProducer<byte[], byte[]> producer;

    /** A minimal agent application: nothing but the starter, a handler and an event listener. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class AgentApp {
        final List<ToolResult> handled = new CopyOnWriteArrayList<>();
        final List<ToolResult> evented = new CopyOnWriteArrayList<>();

        @Bean
        ResultHandler collectingHandler() {
            return handled::add;
        }

        @EventListener
        void on(ToolResultReceived e) {
            evented.add(e.result());
        }
    }

    @BeforeAll
    static void start() {
        TestStack stack = TestStack.get();
        topic = stack.freshTopic("starter-results", 1); // one partition: results arrive in the order sent
        app = new SpringApplicationBuilder(AgentApp.class).web(WebApplicationType.NONE).properties(Map.of(
                "spring.datasource.url", stack.freshDatabase("starter"), "spring.datasource.username", "postgres",
                "spring.datasource.password", "", "spring.flyway.enabled", "false",
                "spring.kafka.bootstrap-servers", stack.kafkaBootstrap(),
                "toolonce.agent.results-topic", topic, "toolonce.agent.consumer-group", "starter-" + UUID.randomUUID(),
                "toolonce.agent.source", "/agents/starter-it", "toolonce.agent.dry-runs", "payments/charge",
                "toolonce.signing.keyring-file", TestKeys.file().toString())).run();
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        producer = new KafkaProducer<>(p);
    }

    @AfterAll
    static void stop() {
        if (producer != null) {
            producer.close();
        }
        if (app != null) {
            app.close();
        }
    }

    @Test
    void theStarterGivesThePublisherTheTaskApiTheConsumerAndTheMigratedSchema() {
        assertThat(app.getBean(IntentPublisher.class)).isNotNull();
        assertThat(app.getBean(TaskEngine.class)).isNotNull();
        assertThat(app.getBean(ResultListener.class)).isNotNull();
        assertThat(app.getBean(AgentMigrations.class).applied()).isEqualTo(AgentMigrationScripts.all().size());
        assertThat(jdbc().queryForList("SELECT table_name FROM information_schema.tables WHERE table_schema = 'agent'",
                String.class)).contains("agent_step", "agent_task", "agent_task_step", "inbox_message", "outbox_event",
                "step_result_log");
    }

    @Test
    void aResultReachesTheApplicationsHandlerAndItsEventListener() {
        ToolResult r = result("loose-task", "s1", "acme:loose:1", 1, ResultStatus.COMMITTED);
        send(r);
        AgentApp a = app.getBean(AgentApp.class);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(a.handled).extracting(ToolResult::messageId).contains(r.messageId());
            assertThat(a.evented).extracting(ToolResult::messageId).contains(r.messageId());
        });
    }

    @Test
    void aResultDeliveredTwiceAndReplayedUnderANewMessageIdAdvancesTheTaskOnce() {
        TaskEngine tasks = app.getBean(TaskEngine.class);
        tasks.submit(Plan.of("acme", "kafka-t4", step("1"), step("2"), step("3")));
        ToolResult first = result("kafka-t4", "1", "acme:kafka-t4:1:1", 1, ResultStatus.COMMITTED);
        send(first);
        send(first);
        send(replayOf(first));
        // a later result on the same single partition: once it is applied, the three before it were too
        send(result("kafka-t4", "2", "acme:kafka-t4:2:1", 1, ResultStatus.COMMITTED));

        await().atMost(Duration.ofSeconds(60)).until(() -> intentsOf("kafka-t4").size() == 3);
        assertThat(intentsOf("kafka-t4")).containsExactly("1", "2", "3");
        assertThat(tasks.find("acme", "kafka-t4").orElseThrow().state()).isEqualTo(TaskState.RUNNING);
        assertThat(tasks.steps("acme", "kafka-t4").get(0).publishes()).isEqualTo(1);
    }

    @Test
    void theNextStepOfATaskIsPublishedUnderTheTraceOfTheResultThatAdvancedIt() {
        String trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        app.getBean(TaskEngine.class).submit(Plan.of("acme", "traced-t", step("1"), step("2")));
        ToolResult first = result("traced-t", "1", "acme:traced-t:1:1", 1, ResultStatus.COMMITTED);
        ProducerRecord<byte[], byte[]> rec = record(first);
        rec.headers().add(Contract.TRACEPARENT, trace.getBytes(StandardCharsets.UTF_8));
        send(rec);

        await().atMost(Duration.ofSeconds(60)).until(() -> intentsOf("traced-t").size() == 2);
        assertThat(jdbc().queryForList("SELECT traceparent FROM agent.outbox_event WHERE aggregate_type = ? "
                + "AND payload LIKE ? ORDER BY created_at", String.class, Contract.INTENTS_TOPIC, "%\"traced-t\"%")).as("step 1 untraced (submitted outside any trace), "
                + "step 2 under the result's trace").containsExactly(null, trace);
    }

    @Test
    void aPlanMayAskForTheDryRunsTheConfigurationDeclaresAndNoOther() {
        TaskEngine tasks = app.getBean(TaskEngine.class);
        tasks.submit(Plan.of("acme", "dry-1", StepSpec.of("charge", "payments", "charge",
                JsonNodeFactory.instance.objectNode().put("amount", 5).put("currency", "EUR")).withDryRun()));
        assertThat(tasks.steps("acme", "dry-1").get(0).state().name()).isEqualTo("DRY_RUN");
        assertThatThrownBy(() -> tasks.submit(Plan.of("acme", "dry-2", step("1").withDryRun())))
                .isInstanceOf(PlanRefusedException.class).hasMessageContaining("step '1' asks for a dry run");
        assertThat(tasks.find("acme", "dry-2")).isEmpty();
    }

    private static StepSpec step(String id) {
        return StepSpec.of(id, "counter", "apply", JsonNodeFactory.instance.objectNode().put("step", id));
    }

    private static ToolResult result(String task, String step, String key, long version, ResultStatus status) {
        return new ToolResult(UUID.randomUUID().toString(), UUID.randomUUID().toString(), "acme", "counter", "apply",
                key, "sha256:" + "0".repeat(64), task, step, version, status, "c_" + step, null, null, 1, false,
                "2026-12-01T00:00:00Z");
    }

    private static ToolResult replayOf(ToolResult r) {
        return new ToolResult(UUID.randomUUID().toString(), UUID.randomUUID().toString(), r.tenantId(), r.tool(),
                r.operation(), r.idempotencyKey(), r.requestHash(), r.taskId(), r.stepId(), r.callVersion(), r.status(),
                r.externalObjectId(), r.result(), r.error(), r.attempts(), true, r.completedAt());
    }

    private static void send(ToolResult r) {
        send(record(r));
    }

    private static ProducerRecord<byte[], byte[]> record(ToolResult r) {
        ProducerRecord<byte[], byte[]> rec = new ProducerRecord<>(topic, r.recordKey().getBytes(StandardCharsets.UTF_8),
                CODEC.write(r).getBytes(StandardCharsets.UTF_8));
        rec.headers().add(Contract.CE_ID, r.messageId().getBytes(StandardCharsets.UTF_8));
        return TestKeys.sign(rec, TestKeys.executor());
    }

    private static void send(ProducerRecord<byte[], byte[]> rec) {
        try {
            producer.send(rec).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot send a result to " + topic, e);
        }
    }

    private static JdbcTemplate jdbc() {
        return app.getBean(JdbcTemplate.class);
    }

    private static List<String> intentsOf(String task) {
        return jdbc().queryForList("SELECT payload FROM agent.outbox_event WHERE aggregate_type = ? ORDER BY created_at",
                String.class, Contract.INTENTS_TOPIC).stream()
                .map(p -> CODEC.parse(p.getBytes(StandardCharsets.UTF_8)))
                .filter(n -> task.equals(n.get("taskId").asString()))
                .map(n -> n.get("stepId").asString()).toList();
    }
}
