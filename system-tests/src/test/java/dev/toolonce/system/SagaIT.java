package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.testsupport.TestStack;
import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.agent.task.DryRunCatalog;
import dev.toolonce.agent.task.Plan;
import dev.toolonce.agent.task.Step;
import dev.toolonce.agent.task.StepSpec;
import dev.toolonce.agent.task.TaskEngine;
import dev.toolonce.agent.task.TaskEvents;
import dev.toolonce.agent.task.TaskState;
import dev.toolonce.agent.task.TaskStore;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.security.Role;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.TestTokens;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 10, tests 1–3 end to end: every service in its own process (sandbox, executor, relay, and the agent side —
 * inbox-consumer, the thin runnable on the agent library that consumes results and advances tasks). The test JVM is
 * the agent application: it submits tasks into the agent's database with the task API, as an app would. Effects
 * are judged at the sandbox's ledger, ledger states at the executor's.
 */
class SagaIT {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static Fixtures f;
    private static TaskEngine tasks;
    private static JdbcTemplate jdbc;
    private static String operator; // an operator of the test's tenant: the approval records this principal
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    @BeforeAll
    static void setUp() throws Exception {
        f = new Fixtures(SystemStack.get());
        operator = TestTokens.create("saga-it", Role.OPERATOR, f.tenant);
        f.clearFaults();
        DataSource ds = TestStack.pooled(f.stack.jdbcUrl);
        jdbc = new JdbcTemplate(ds);
        tasks = new TaskEngine(new TaskStore(jdbc, "agent"),
                new IntentPublisher("agent", Contract.INTENTS_TOPIC, "/agents/saga-it", TestKeys.keyring()),
                new TaskEvents(jdbc, "agent", TaskEvents.DEFAULT_TOPIC, "/agents/saga-it", TestKeys.keyring()), ds,
                new TransactionTemplate(new DataSourceTransactionManager(ds)),
                DryRunCatalog.of(List.of("payments/charge"))); // as the executor's default tool configuration declares
    }

    @AfterEach
    void clearFaults() throws Exception {
        f.clearFaults();
    }

    @AfterAll
    static void tearDown() {
        if (f != null) {
            f.close();
        }
    }

    // ---- test 1

    @Test
    void theAgentKilledWithAStepInFlightResumesWithTheOriginalKeyAndEveryStepTakesEffectOnce() throws Exception {
        String task = f.tenant + "-crash";
        f.faults("payments", "{\"stallMs\": 6000}"); // step 2 is applied, then its answer takes 6 s
        tasks.submit(Plan.of(f.tenant, task, tickets(task, "reserve").withCompensation(),
                payment(task, "charge", "EUR").withCompensation(), counter(task, "notify")));

        await().atMost(WAIT).until(() -> "STARTED".equals(callState("payments", "charge", key(task, "charge"))));
        assertThat(step(task, "reserve").state().name()).isEqualTo("COMMITTED");
        f.stack.killConsumer(); // step 1 committed, step 2 in flight, step 3 pending
        try {
            await().atMost(WAIT).until(() -> "COMMITTED".equals(callState("payments", "charge", key(task, "charge"))));
            assertThat(step(task, "charge").state().name()).as("nobody applied its result").isEqualTo("RUNNING");
            assertThat(step(task, "notify").state().name()).isEqualTo("PENDING");
        } finally {
            f.stack.startConsumer(); // resumes open tasks at start-up
        }

        await().atMost(WAIT).until(() -> tasks.find(f.tenant, task).orElseThrow().state() == TaskState.SUCCEEDED);
        assertThat(intentKeys(task, "reserve")).containsExactly(key(task, "reserve"));
        assertThat(intentKeys(task, "charge")).as("re-published with its original key")
                .containsExactly(key(task, "charge"), key(task, "charge"));
        assertThat(step(task, "reserve").publishes()).isEqualTo(1);
        for (String s : List.of("reserve", "charge", "notify")) {
            JsonNode effect = f.effect(f.tenant + ":" + task + ":" + s);
            assertThat(effect).as("effect of " + s).isNotNull();
            assertThat(effect.path("count").asInt()).as("effects of " + s).isEqualTo(1);
        }
    }

    // ---- test 2

    @Test
    void aFinalFailureOfStepThreeCompensatesStepsTwoAndOneInThatOrder() throws Exception {
        String task = f.tenant + "-undo";
        tasks.submit(Plan.of(f.tenant, task, tickets(task, "reserve").withCompensation(),
                payment(task, "charge", "EUR").withCompensation(),
                payment(task, "surcharge", "12").withCompensation(), // the sandbox refuses the currency: FAILED_FINAL
                email(task, "confirm").asIrreversible()));

        await().atMost(WAIT).until(() -> tasks.find(f.tenant, task).orElseThrow().state().isFinal());
        assertThat(tasks.find(f.tenant, task).orElseThrow().state()).isEqualTo(TaskState.COMPENSATED);
        assertThat(tasks.steps(f.tenant, task)).extracting(s -> s.state().name())
                .containsExactly("COMPENSATED", "COMPENSATED", "FAILED", "SKIPPED");
        Step reserve = step(task, "reserve");
        Step charge = step(task, "charge");
        assertThat(charge.compensatedAt()).isBefore(reserve.compensationStartedAt());
        // the executor settles each original once its compensation committed (COMMITTED → COMPENSATING → COMPENSATED)
        await().atMost(WAIT).until(() -> "COMPENSATED".equals(callState("payments", "charge", key(task, "charge")))
                && "COMPENSATED".equals(callState("tickets", "create", key(task, "reserve"))));
        long refundCall = callId("payments", "charge.compensate", key(task, "charge"));
        long cancelCall = callId("tickets", "create.compensate", key(task, "reserve"));
        assertThat(refundCall).as("the refund was asked for before the cancellation").isLessThan(cancelCall);
        // at the sandbox: one refund of the charge, one cancellation of the ticket, no email
        assertThat(sandboxEffects(f.tenant + "/payments/charge/" + key(task, "charge") + "#compensate"))
                .extracting(e -> e.path("count").asInt()).containsExactly(1);
        assertThat(sandboxEffects(f.tenant + "/tickets/create/" + key(task, "reserve") + "#compensate"))
                .extracting(e -> e.path("count").asInt()).containsExactly(1);
        assertThat(f.effect(f.tenant + ":" + task + ":confirm")).isNull();
        await().atMost(WAIT).until(() -> Boolean.FALSE.equals(taskHeldOpen(task)));
    }

    // ---- test 3, and the approval gate of test 5 through the agent's API

    @Test
    void aCompensationThatKeepsFailingLeavesTaskAndCompensationInReviewAndNothingReportsSuccess() throws Exception {
        String task = f.tenant + "-stuck";
        tasks.submit(Plan.of(f.tenant, task, tickets(task, "reserve").withCompensation(),
                payment(task, "charge", "12").withCompensation().withApproval()));
        await().atMost(WAIT).until(() -> tasks.find(f.tenant, task).orElseThrow().state() == TaskState.AWAITING_APPROVAL);
        assertThat(intentKeys(task, "charge")).as("held until approved").isEmpty();

        f.faults("tickets", "{\"failStatus\": 500, \"failStatusNext\": 1000}"); // every cancellation fails
        HttpResponse<String> approved = http.send(HttpRequest.newBuilder(URI.create(f.stack.consumerUrl + "/tasks/"
                        + task + "/steps/charge/approve")).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + operator)
                .POST(HttpRequest.BodyPublishers.ofString("{\"idempotencyKey\":\"" + key(task, "charge") + "\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);

        await().atMost(WAIT).until(() -> tasks.find(f.tenant, task).orElseThrow().state() == TaskState.NEEDS_REVIEW);
        assertThat(step(task, "reserve").state().name()).isEqualTo("COMPENSATION_REVIEW");
        assertThat(callState("tickets", "create.compensate", key(task, "reserve"))).isEqualTo("NEEDS_REVIEW");
        assertThat(callState("tickets", "create", key(task, "reserve"))).isEqualTo("COMPENSATING");
        assertThat(taskEventStates(task)).doesNotContain("SUCCEEDED", "COMPENSATED").endsWith("NEEDS_REVIEW");
        JsonNode shown = json.readTree(http.send(HttpRequest.newBuilder(URI.create(f.stack.consumerUrl + "/tasks/"
                + task)).header("Authorization", "Bearer " + operator).build(), HttpResponse.BodyHandlers.ofString()).body());
        assertThat(shown.path("state").asString()).isEqualTo("NEEDS_REVIEW");
        assertThat(shown.path("steps").get(1).path("approvedBy").asString()).isEqualTo("saga-it");
    }

    // ---- dry runs: the payment tool's YAML declares one for charge (payments.operations.charge.dry-run)

    @Test
    void aDryRunChecksTheChargeAsItsOwnCallAndAFailedOneFailsTheTaskBeforeTheCharge() throws Exception {
        String ok = f.tenant + "-dry-ok";
        String bad = f.tenant + "-dry-bad";
        tasks.submit(Plan.of(f.tenant, ok, tickets(ok, "reserve").withCompensation(),
                payment(ok, "charge", "EUR").withDryRun().withCompensation(), counter(ok, "notify")));
        tasks.submit(Plan.of(f.tenant, bad, tickets(bad, "reserve").withCompensation(),
                payment(bad, "charge", "12").withDryRun().withCompensation(), // the dry run refuses the currency
                email(bad, "confirm").asIrreversible()));

        await().atMost(WAIT).until(() -> tasks.find(f.tenant, ok).orElseThrow().state().isFinal()
                && tasks.find(f.tenant, bad).orElseThrow().state().isFinal());
        assertThat(tasks.find(f.tenant, ok).orElseThrow().state()).isEqualTo(TaskState.SUCCEEDED);
        String dryKey = f.tenant + ":" + ok + ":charge.dry-run:1";
        assertThat(callState("payments", "charge.dry-run", dryKey)).as("the dry run is a ledger call of its own")
                .isEqualTo("COMMITTED");
        assertThat(callId("payments", "charge.dry-run", dryKey)).isLessThan(callId("payments", "charge", key(ok, "charge")));
        assertThat(f.effect(f.tenant + ":" + ok + ":charge").path("count").asInt()).isEqualTo(1);
        assertThat(step(ok, "charge").dryRunPassed()).isTrue();

        assertThat(tasks.find(f.tenant, bad).orElseThrow().state()).isEqualTo(TaskState.COMPENSATED);
        assertThat(tasks.steps(f.tenant, bad)).extracting(s -> s.state().name()).containsExactly("COMPENSATED", "FAILED", "SKIPPED");
        assertThat(step(bad, "charge").errorMessage()).startsWith("dry run: ");
        assertThat(callState("payments", "charge.dry-run", f.tenant + ":" + bad + ":charge.dry-run:1"))
                .isEqualTo("FAILED_FINAL");
        assertThat(callState("payments", "charge", key(bad, "charge"))).as("the charge was never sent").isNull();
        assertThat(intentKeys(bad, "charge")).isEmpty();
        assertThat(f.effect(f.tenant + ":" + bad + ":charge")).isNull();
        assertThat(f.effect(f.tenant + ":" + bad + ":confirm")).isNull();
    }

    /**
     * Issue 19: step keys ({@code tenant:task:step:version}) are predictable, and a COMMITTED result put on the results
     * topic by anyone advanced the saga. A result of the right scope signed by an agent's key (not the executor's) is
     * dead-lettered {@code SIGNER_NOT_ALLOWED} and leaves the step where it was; the real answer still completes it.
     */
    @Test
    void aForgedResultRightScopeWrongSignerLeavesTheSagaWhereItWas() throws Exception {
        String task = f.tenant + "-forged";
        f.faults("payments", "{\"stallMs\": 6000}"); // the charge is in flight long enough to forge its answer
        tasks.submit(Plan.of(f.tenant, task, payment(task, "charge", "EUR"), counter(task, "notify")));
        await().atMost(WAIT).until(() -> "STARTED".equals(callState("payments", "charge", key(task, "charge"))));

        String forgedId = UUID.randomUUID().toString();
        ToolResult forged = new ToolResult(forgedId, UUID.randomUUID().toString(), f.tenant, "payments",
                "charge", key(task, "charge"), "sha256:" + "0".repeat(64), task, "charge", 1, ResultStatus.COMMITTED,
                "ch_forged", null, null, 1, false, "2026-12-01T00:00:00Z");
        try (ResultWatcher dlq = new ResultWatcher(f.stack.infra.kafkaBootstrap(), Contract.RESULTS_DLQ_TOPIC)) {
            f.sendSigned(Contract.RESULTS_TOPIC, forged.recordKey(), new EventCodec().write(forged)
                    .getBytes(StandardCharsets.UTF_8), forgedId, TestKeys.agents());
            dlq.awaitRecords(w -> w.records.stream().anyMatch(r -> forgedId.equals(header(r, Contract.CE_ID))), WAIT);
            ConsumerRecord<byte[], byte[]> dead = dlq.records.stream()
                    .filter(r -> forgedId.equals(header(r, Contract.CE_ID))).findFirst().orElseThrow();
            assertThat(header(dead, Contract.DLQ_ERROR_CODE)).isEqualTo("SIGNER_NOT_ALLOWED");
        }
        assertThat(step(task, "charge").state().name()).as("the forged COMMITTED moved nothing").isEqualTo("RUNNING");
        assertThat(step(task, "notify").state().name()).isEqualTo("PENDING");
        assertThat(intentKeys(task, "notify")).isEmpty();

        await().atMost(WAIT).until(() -> tasks.find(f.tenant, task).orElseThrow().state() == TaskState.SUCCEEDED);
        assertThat(step(task, "charge").externalObjectId()).as("the executor's answer, not the forgery")
                .isNotEqualTo("ch_forged");
        assertThat(f.effect(f.tenant + ":" + task + ":charge").path("count").asInt()).isEqualTo(1);
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    // ---- helpers

    private static String key(String task, String step) {
        return f.tenant + ":" + task + ":" + step + ":1";
    }

    private static ObjectNode args(String task, String step) {
        return JsonNodeFactory.instance.objectNode().put("opId", f.tenant + ":" + task + ":" + step);
    }

    private static StepSpec tickets(String task, String step) {
        return StepSpec.of(step, "tickets", "create", args(task, step).put("title", "seat for " + task));
    }

    private static StepSpec payment(String task, String step, String currency) {
        return StepSpec.of(step, "payments", "charge", args(task, step).put("amount", 1200).put("currency", currency));
    }

    private static StepSpec email(String task, String step) {
        return StepSpec.of(step, "email", "send", args(task, step).put("to", "a@example.com").put("subject", "booked"));
    }

    private static StepSpec counter(String task, String step) {
        return StepSpec.of(step, "counter", "apply", args(task, step).put("delta", 1));
    }

    private static Step step(String task, String stepId) {
        return tasks.steps(f.tenant, task).stream().filter(s -> s.stepId().equals(stepId)).findFirst().orElseThrow();
    }

    private static String callState(String tool, String op, String key) {
        return jdbc.queryForList("SELECT state FROM executor.tool_call WHERE tenant_id = ? AND tool = ? AND operation = ? "
                + "AND idempotency_key = ?", String.class, f.tenant, tool, op, key).stream().findFirst().orElse(null);
    }

    private static long callId(String tool, String op, String key) {
        return jdbc.queryForObject("SELECT id FROM executor.tool_call WHERE tenant_id = ? AND tool = ? AND operation = ? "
                + "AND idempotency_key = ?", Long.class, f.tenant, tool, op, key);
    }

    private static Boolean taskHeldOpen(String task) {
        return jdbc.queryForList("SELECT open FROM executor.task_hold WHERE tenant_id = ? AND task_id = ?",
                Boolean.class, f.tenant, task).stream().findFirst().orElse(null);
    }

    /** Idempotency keys of the intents the agent published for a step, in order. */
    private List<String> intentKeys(String task, String stepId) {
        List<String> keys = new ArrayList<>();
        for (String p : jdbc.queryForList("SELECT payload FROM agent.outbox_event WHERE aggregate_type = ? "
                + "ORDER BY created_at", String.class, Contract.INTENTS_TOPIC)) {
            JsonNode n = json.readTree(p);
            if (task.equals(n.path("taskId").asString(null)) && stepId.equals(n.path("stepId").asString(null))) {
                keys.add(n.path("idempotencyKey").asString());
            }
        }
        return keys;
    }

    private List<String> taskEventStates(String task) {
        return jdbc.queryForList("SELECT payload FROM agent.outbox_event WHERE aggregate_type = ? ORDER BY created_at",
                        String.class, TaskEvents.DEFAULT_TOPIC).stream().map(json::readTree)
                .filter(n -> task.equals(n.path("taskId").asString(null))).map(n -> n.path("state").asString())
                .toList();
    }

    private List<JsonNode> sandboxEffects(String scope) throws Exception {
        List<JsonNode> found = new ArrayList<>();
        for (JsonNode e : f.getJson(f.stack.sandboxUrl + "/_ledger").path("effects")) {
            if (scope.equals(e.path("scope").asString(null))) {
                found.add(e);
            }
        }
        return found;
    }
}
