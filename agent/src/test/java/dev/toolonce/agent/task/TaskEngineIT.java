package dev.toolonce.agent.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.agent.AgentSchema;
import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.agent.results.ResultListener;
import dev.toolonce.agent.results.ResultRule;
import dev.toolonce.agent.results.StepResults;
import dev.toolonce.jdbc.InboxStore;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Verdict;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.TestStack;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.flywaydb.core.Flyway;
import dev.toolonce.schemas.ContractValidator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The task engine on a real PostgreSQL (a fresh database per test), fed through the real result consumer path
 * (ResultListener: decoder, inbox, step results, then the engine in the same transaction) with result records built
 * as the executor would send them. What it publishes is read back from the agent outbox.
 */
class TaskEngineIT {
    private static final String SCHEMA = "agent";
    private final EventCodec codec = new EventCodec();
    private JdbcTemplate jdbc;
    private TaskEngine tasks;
    private ResultListener listener;
    private TransactionTemplate tx;
    private long offset;

    @BeforeEach
    void setUp() {
        String url = TestStack.get().freshDatabase("tasks");
        Flyway.configure().dataSource(url, "postgres", "").schemas(SCHEMA).defaultSchema(SCHEMA)
                .locations(AgentSchema.MIGRATIONS).placeholders(Map.of("publication", "tasks_pub"))
                .load().migrate();
        DataSource ds = TestStack.pooled(url);
        jdbc = new JdbcTemplate(ds);
        tx = new TransactionTemplate(new DataSourceTransactionManager(ds));
        tasks = new TaskEngine(new TaskStore(jdbc, SCHEMA), new IntentPublisher(SCHEMA, Contract.INTENTS_TOPIC,
                "/it/agent", TestKeys.keyring()), new TaskEvents(jdbc, SCHEMA, TaskEvents.DEFAULT_TOPIC, "/it/agent",
                TestKeys.keyring()), ds, tx,
                DryRunCatalog.of(List.of("payments/charge")));
        listener = new ResultListener("it-agent", new InboxStore(jdbc, SCHEMA), new StepResults(jdbc, SCHEMA),
                TestKeys.keyring(), (r, code, message) -> { throw new AssertionError("dead-lettered " + code + ": " + message); },
                tx, () -> true, 3, new SimpleMeterRegistry(), List.of(tasks.resultHandler()));
    }

    /** Every task event any test made is what the contract's schema says a task event is. */
    @AfterEach
    void everyTaskEventPublishedMatchesTheContractSchema() {
        ContractValidator validator = new ContractValidator();
        List<Map<String, Object>> rows = jdbc.queryForList("SELECT event_type, payload FROM agent.outbox_event "
                + "WHERE aggregate_type = ?", TaskEvents.DEFAULT_TOPIC);
        assertThat(rows).allSatisfy(row -> assertThat(row.get("event_type")).isEqualTo(Contract.TASK_TYPE));
        for (Map<String, Object> row : rows) {
            String payload = (String) row.get("payload");
            assertThat(validator.validateTaskEvent(codec.parse(payload.getBytes(StandardCharsets.UTF_8))))
                    .as(payload).isEmpty();
        }
    }

    private static ObjectNode args(String k, Object v) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put(k, String.valueOf(v));
        return n;
    }

    private static StepSpec step(String id, String tool, String op) {
        return StepSpec.of(id, tool, op, args("n", id));
    }

    // ---- test 4 of issue 10: a result delivered twice and replayed under a new message id advances the task once

    @Test
    void aResultDeliveredTwiceAndReplayedUnderANewMessageIdAdvancesTheTaskOnce() {
        tasks.submit(Plan.of("acme", "t4", step("1", "tickets", "create").withCompensation(),
                step("2", "payments", "charge").withCompensation()));
        assertThat(intents("t4")).extracting(i -> i[0]).containsExactly("1");

        ToolResult committed = result("t4", "1", "tickets", "create", 1, ResultStatus.COMMITTED, "tk_1", false);
        deliver(committed);
        deliver(committed); // redelivery: same message id
        deliver(withNewId(committed, true)); // the executor's replay to a duplicate intent: new message id

        assertThat(intents("t4")).extracting(i -> i[0]).containsExactly("1", "2");
        assertThat(stepStates("t4")).containsExactly("COMMITTED", "RUNNING");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM agent.inbox_message", Integer.class)).isEqualTo(2);
    }

    // ---- test 2 of issue 10 at the agent side: compensation in reverse order

    @Test
    void aFinalFailureCompensatesTheCompletedStepsInReverseOrder() {
        tasks.submit(Plan.of("acme", "t2", step("1", "tickets", "create").withCompensation(),
                step("2", "payments", "charge").withCompensation(), step("3", "payments", "charge").withCompensation(),
                step("4", "email", "send").asIrreversible()));
        deliver(result("t2", "1", "tickets", "create", 1, ResultStatus.COMMITTED, "tk_1", false));
        deliver(result("t2", "2", "payments", "charge", 1, ResultStatus.COMMITTED, "ch_2", false));
        deliver(result("t2", "3", "payments", "charge", 1, ResultStatus.FAILED_FINAL, null, false));

        assertThat(stepStates("t2")).containsExactly("COMMITTED", "COMPENSATING", "FAILED", "SKIPPED");
        deliver(result("t2", "2.compensate", "payments", "charge.compensate", 1, ResultStatus.COMMITTED, "re_2", false));
        deliver(result("t2", "2", "payments", "charge", 2, ResultStatus.COMPENSATED, null, false)); // the original's
        deliver(result("t2", "1.compensate", "tickets", "create.compensate", 1, ResultStatus.COMMITTED, "tk_1", false));

        assertThat(intents("t2")).extracting(i -> i[0] + " " + i[1]).containsExactly("1 create", "2 charge",
                "3 charge", "2.compensate charge.compensate", "1.compensate create.compensate");
        assertThat(intents("t2")).extracting(i -> i[2]).containsExactly("acme:t2:1:1", "acme:t2:2:1", "acme:t2:3:1",
                "acme:t2:2:1", "acme:t2:1:1");
        assertThat(tasks.find("acme", "t2").orElseThrow().state()).isEqualTo(TaskState.COMPENSATED);
        assertThat(stepStates("t2")).containsExactly("COMPENSATED", "COMPENSATED", "FAILED", "SKIPPED");
        assertThat(tasks.steps("acme", "t2").get(1).compensationExternalId()).isEqualTo("re_2");
    }

    // ---- test 3 of issue 10 at the agent side

    @Test
    void everyOutboxRowIsSignedAndACompensationIsAskedForUnderItsOwnType() {
        tasks.submit(Plan.of("acme", "t9", step("1", "tickets", "create").withCompensation(),
                step("2", "payments", "charge")));
        deliver(result("t9", "1", "tickets", "create", 1, ResultStatus.COMMITTED, "tk_1", false));
        deliver(result("t9", "2", "payments", "charge", 1, ResultStatus.FAILED_FINAL, null, false));

        Keyring keyring = TestKeys.keyring();
        List<String> rows = new ArrayList<>();
        jdbc.query("SELECT id::text, event_type, payload, signature FROM agent.outbox_event ORDER BY created_at, id", rs -> {
            Verdict v = keyring.verify(rs.getString(4), rs.getString(2), rs.getString(1),
                    rs.getString(3).getBytes(StandardCharsets.UTF_8));
            rows.add(rs.getString(2) + " " + (v instanceof Verdict.Signed signed ? signed.key().name() : v));
        });
        assertThat(rows).isNotEmpty().allMatch(r -> r.endsWith(" test-agents"));
        assertThat(rows).contains(Contract.COMPENSATION_TYPE + " test-agents", Contract.INTENT_TYPE + " test-agents",
                Contract.TASK_TYPE + " test-agents");
        assertThat(jdbc.queryForObject("SELECT event_type FROM agent.outbox_event WHERE payload::jsonb ->> 'operation'"
                + " = 'create.compensate'", String.class)).isEqualTo(Contract.COMPENSATION_TYPE);
    }

    @Test
    void aForgedResultRightScopeWrongSignerLeavesTheSagaWhereItWas() {
        tasks.submit(Plan.of("acme", "t8", step("1", "tickets", "create").withCompensation(),
                step("2", "payments", "charge")));
        List<String> refused = new ArrayList<>();
        ResultListener guarded = new ResultListener("it-agent", new InboxStore(jdbc, SCHEMA), new StepResults(jdbc, SCHEMA),
                TestKeys.keyring(), (r, code, message) -> refused.add(code), tx, () -> true, 3,
                new SimpleMeterRegistry(), List.of(tasks.resultHandler()));
        ToolResult forged = result("t8", "1", "tickets", "create", 1, ResultStatus.COMMITTED, "tk_forged", false);
        ConsumerRecord<byte[], byte[]> byAnAgent = record(forged);
        ConsumerRecord<byte[], byte[]> unsigned = record(withNewId(forged, false));
        unsigned.headers().remove(Contract.SIGNATURE);
        guarded.onBatch(List.of(TestKeys.sign(byAnAgent, TestKeys.agents()), unsigned));

        assertThat(refused).containsExactly("SIGNER_NOT_ALLOWED", "UNSIGNED_RECORD");
        assertThat(stepStates("t8")).containsExactly("RUNNING", "PENDING");
        assertThat(intents("t8")).extracting(i -> i[0]).containsExactly("1");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM agent.step_result_log WHERE task_id = 't8'", Integer.class))
                .as("nothing of a forged record is noted against a step").isZero();
        deliver(forged); // the same result, signed by the executor's key
        assertThat(stepStates("t8")).containsExactly("COMMITTED", "RUNNING");
    }

    @Test
    void aCompensationInReviewPutsTheTaskInReviewAndNothingReportsSuccess() {
        tasks.submit(Plan.of("acme", "t3", step("1", "tickets", "create").withCompensation(),
                step("2", "payments", "charge")));
        deliver(result("t3", "1", "tickets", "create", 1, ResultStatus.COMMITTED, "tk_1", false));
        deliver(result("t3", "2", "payments", "charge", 1, ResultStatus.FAILED_FINAL, null, false));
        deliver(result("t3", "1.compensate", "tickets", "create.compensate", 1, ResultStatus.NEEDS_REVIEW, null, false));

        assertThat(tasks.find("acme", "t3").orElseThrow().state()).isEqualTo(TaskState.NEEDS_REVIEW);
        assertThat(stepStates("t3")).containsExactly("COMPENSATION_REVIEW", "FAILED");
        assertThat(events("t3")).doesNotContain("SUCCEEDED", "COMPENSATED").endsWith("NEEDS_REVIEW");

        // an operator commits the cancellation by hand: the compensation commits and the task is compensated
        deliver(result("t3", "1.compensate", "tickets", "create.compensate", 2, ResultStatus.COMMITTED, "tk_1", false));
        assertThat(tasks.find("acme", "t3").orElseThrow().state()).isEqualTo(TaskState.COMPENSATED);
    }

    // ---- test 5 of issue 10: approvals, and changed arguments need a new approval and get a new key

    @Test
    void anApprovalHoldsTheTaskAndChangedArgumentsNeedANewApprovalUnderANewKey() {
        tasks.submit(Plan.of("acme", "t5", step("1", "tickets", "create").withCompensation(),
                step("2", "payments", "charge").withCompensation().withApproval(), step("3", "email", "send")));
        tasks.approve("acme", "t5", "2", "alice"); // approved ahead, for the arguments as planned
        tasks.changeArguments("acme", "t5", "2", args("amount", 999)); // voids that approval; new key version
        deliver(result("t5", "1", "tickets", "create", 1, ResultStatus.COMMITTED, "tk_1", false));

        assertThat(tasks.find("acme", "t5").orElseThrow().state()).isEqualTo(TaskState.AWAITING_APPROVAL);
        assertThat(intents("t5")).extracting(i -> i[0]).containsExactly("1");
        tasks.approve("acme", "t5", "2", "bob");
        assertThat(intents("t5")).extracting(i -> i[0] + " " + i[2]).containsExactly("1 acme:t5:1:1", "2 acme:t5:2:2");
        assertThat(jdbc.queryForObject("SELECT payload FROM agent.outbox_event WHERE aggregate_type = ? "
                + "AND payload LIKE '%acme:t5:2:2%'", String.class, Contract.INTENTS_TOPIC)).contains("\"amount\":\"999\"");
        assertThatThrownBy(() -> tasks.changeArguments("acme", "t5", "2", args("amount", 1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already sent");
        assertThatThrownBy(() -> tasks.approve("acme", "t5", "2", "mallory")).isInstanceOf(IllegalStateException.class);
    }

    // ---- resume (test 1 of issue 10 at the agent side; the crash itself is in system-tests)

    @Test
    void resumeRepublishesTheStepInFlightWithItsOriginalKeyAndNeverTouchesCommittedSteps() {
        tasks.submit(Plan.of("acme", "t1", step("1", "tickets", "create").withCompensation(),
                step("2", "payments", "charge").withCompensation(), step("3", "email", "send")));
        deliver(result("t1", "1", "tickets", "create", 1, ResultStatus.COMMITTED, "tk_1", false));

        assertThat(tasks.resume("acme", "t1")).containsExactly("2");
        assertThat(intents("t1")).extracting(i -> i[0] + " " + i[2]).containsExactly("1 acme:t1:1:1",
                "2 acme:t1:2:1", "2 acme:t1:2:1");
        deliver(result("t1", "2", "payments", "charge", 1, ResultStatus.COMMITTED, "ch_1", false));
        deliver(withNewId(result("t1", "2", "payments", "charge", 1, ResultStatus.COMMITTED, "ch_1", true), true));
        deliver(result("t1", "3", "email", "send", 1, ResultStatus.COMMITTED, "em_1", false));
        assertThat(tasks.find("acme", "t1").orElseThrow().state()).isEqualTo(TaskState.SUCCEEDED);
        assertThat(intents("t1")).extracting(i -> i[0]).containsExactly("1", "2", "2", "3");
        assertThat(tasks.resume("acme", "t1")).isEmpty();
    }

    // ---- dry runs: a step checked by its tool's dry run first, as a call of its own

    @Test
    void aDryRunRunsFirstUnderItsOwnKeyThenTheApprovalThenTheStep() {
        tasks.submit(Plan.of("acme", "t8", step("1", "tickets", "create").withCompensation(),
                step("2", "payments", "charge").withDryRun().withApproval().withCompensation(),
                step("3", "email", "send").asIrreversible()));
        deliver(result("t8", "1", "tickets", "create", 1, ResultStatus.COMMITTED, "tk_1", false));
        assertThat(stepStates("t8")).containsExactly("COMMITTED", "DRY_RUN", "PENDING");
        assertThat(tasks.resume("acme", "t8")).as("the dry run out is re-published").containsExactly("2.dry-run");

        ToolResult passed = result("t8", "2.dry-run", "payments", "charge.dry-run", 1, ResultStatus.COMMITTED, null, false);
        deliver(passed);
        deliver(withNewId(passed, true)); // replayed under a new message id: changes nothing
        assertThat(tasks.find("acme", "t8").orElseThrow().state()).isEqualTo(TaskState.AWAITING_APPROVAL);
        assertThat(tasks.steps("acme", "t8").get(1).dryRunPassed()).isTrue();
        tasks.approve("acme", "t8", "2", "alice");

        assertThat(intents("t8")).extracting(i -> i[0] + " " + i[1] + " " + i[2]).containsExactly(
                "1 create acme:t8:1:1", "2.dry-run charge.dry-run acme:t8:2.dry-run:1",
                "2.dry-run charge.dry-run acme:t8:2.dry-run:1", "2 charge acme:t8:2:1");
        assertThat(intentArguments("t8", "2.dry-run")).isEqualTo(intentArguments("t8", "2"));
        assertThat(stepStates("t8")).containsExactly("COMMITTED", "RUNNING", "PENDING");
    }

    @Test
    void aFailedDryRunFailsTheTaskBeforeAnyEffectOfTheStep() {
        tasks.submit(Plan.of("acme", "t9", step("1", "payments", "charge").withDryRun().withCompensation(),
                step("2", "email", "send").asIrreversible()));
        deliver(result("t9", "1.dry-run", "payments", "charge.dry-run", 1, ResultStatus.FAILED_FINAL, null, false));

        Task task = tasks.find("acme", "t9").orElseThrow();
        assertThat(task.state()).isEqualTo(TaskState.FAILED);
        assertThat(task.failedStep()).isEqualTo("1");
        assertThat(stepStates("t9")).containsExactly("FAILED", "SKIPPED");
        assertThat(tasks.steps("acme", "t9").get(0).errorMessage()).startsWith("dry run: ");
        assertThat(intents("t9")).as("nothing of the step itself was sent, nothing to compensate")
                .extracting(i -> i[0] + " " + i[1]).containsExactly("1.dry-run charge.dry-run");

        // a dry run refused before the tool was asked (e.g. the executor does not know it) fails the step the same way
        tasks.submit(Plan.of("acme", "t10", step("1", "tickets", "create").withCompensation(),
                step("2", "payments", "charge").withDryRun().withCompensation()));
        deliver(result("t10", "1", "tickets", "create", 1, ResultStatus.COMMITTED, "tk_1", false));
        deliver(result("t10", "2.dry-run", "payments", "charge.dry-run", 0, ResultStatus.REJECTED, null, false));
        assertThat(stepStates("t10")).containsExactly("COMPENSATING", "FAILED");
        assertThat(intents("t10")).extracting(i -> i[0]).containsExactly("1", "2.dry-run", "1.compensate");
    }

    /**
     * Issue 20, point 2: the engine and {@code agent_step} once disagreed here — {@code agent_step} kept only the first
     * intent's message id, so a rejection answering the intent a resume re-published failed the step in the engine and
     * was logged as "not own intent". Now {@code agent_step} is the one record: the rejection answers one of the call's
     * own messages, it is applied there, and the engine fails the step because it was applied. A rejection of a
     * message the agent never sent for the call changes neither (the negative control).
     */
    @Test
    void aRejectionOfTheIntentAResumeRePublishedIsTheCallsOwnInTheOneStepModel() {
        tasks.submit(Plan.of("acme", "t20", step("1", "payments", "charge")));
        assertThat(tasks.resume("acme", "t20")).containsExactly("1");
        List<String> sent = intentIds("t20", "1");
        assertThat(sent).as("the first intent and its re-publication").hasSize(2).doesNotHaveDuplicates();

        ToolResult foreign = answering(result("t20", "1", "payments", "charge", 0, ResultStatus.REJECTED, null, false),
                UUID.randomUUID().toString());
        deliver(foreign);
        assertThat(stepStates("t20")).containsExactly("RUNNING");
        assertThat(logReason(foreign)).isEqualTo(ResultRule.Verdict.NOT_OWN_INTENT.reason());

        ToolResult rejected = answering(result("t20", "1", "payments", "charge", 0, ResultStatus.REJECTED, null, false),
                sent.get(1));
        deliver(rejected);
        assertThat(logReason(rejected)).isEqualTo("applied");
        assertThat(jdbc.queryForObject("SELECT status FROM agent.agent_step WHERE tenant_id = 'acme' AND task_id = 't20'"
                + " AND step_id = '1'", String.class)).isEqualTo("REJECTED");
        assertThat(stepStates("t20")).containsExactly("FAILED");
        assertThat(tasks.find("acme", "t20").orElseThrow().state()).isEqualTo(TaskState.FAILED);
    }

    private String logReason(ToolResult r) {
        return jdbc.queryForObject("SELECT reason FROM agent.step_result_log WHERE result_message_id = ?", String.class,
                r.messageId());
    }

    @Test
    void changedArgumentsAfterAPassedDryRunGetANewDryRunUnderANewKey() {
        tasks.submit(Plan.of("acme", "t11", step("1", "payments", "charge").withDryRun().withApproval()));
        deliver(result("t11", "1.dry-run", "payments", "charge.dry-run", 1, ResultStatus.COMMITTED, null, false));
        assertThat(tasks.find("acme", "t11").orElseThrow().state()).isEqualTo(TaskState.AWAITING_APPROVAL);

        ToolResult oldPassed = result("t11", "1.dry-run", "payments", "charge.dry-run", 2, ResultStatus.COMMITTED, null,
                false);
        tasks.changeArguments("acme", "t11", "1", args("amount", 5));
        assertThat(stepStates("t11")).containsExactly("DRY_RUN");
        deliver(withNewId(oldPassed, false)); // a late answer for the old arguments' dry run: another key, ignored
        assertThat(stepStates("t11")).containsExactly("DRY_RUN");
        assertThat(intents("t11")).extracting(i -> i[0] + " " + i[2]).containsExactly(
                "1.dry-run acme:t11:1.dry-run:1", "1.dry-run acme:t11:1.dry-run:2");
        assertThatThrownBy(() -> tasks.changeArguments("acme", "t11", "1", args("amount", 6)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("dry run is out");
        deliver(result("t11", "1.dry-run", "payments", "charge.dry-run", 1, ResultStatus.COMMITTED, null, false));
        tasks.approve("acme", "t11", "1", "bob");
        assertThat(intents("t11")).extracting(i -> i[0] + " " + i[2]).endsWith("1 acme:t11:1:2");
    }

    @Test
    void aDryRunOfAToolThatDeclaresNoneIsRefusedAtSubmissionNamingTheStep() {
        assertThatThrownBy(() -> tasks.submit(Plan.of("acme", "t12", step("reserve", "tickets", "create").withDryRun())))
                .isInstanceOf(PlanRefusedException.class).hasMessageContaining("step 'reserve' asks for a dry run");
        assertThat(tasks.find("acme", "t12")).isEmpty();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM agent.outbox_event", Integer.class)).isZero();
    }

    /** Issue 19: a stale approval (arguments changed after the operator looked) is refused, the current one goes. */
    @Test
    void anApprovalNamingAKeyThatIsNoLongerTheStepsIsRefusedAsStale() {
        tasks.submit(Plan.of("acme", "t15", step("1", "payments", "charge").withApproval()));
        tasks.changeArguments("acme", "t15", "1", args("amount", 5)); // the key the operator saw was acme:t15:1:1

        assertThatThrownBy(() -> tasks.approve("acme", "t15", "1", "alice", "acme:t15:1:1"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("stale").hasMessageContaining("acme:t15:1:2");
        assertThat(tasks.find("acme", "t15").orElseThrow().state()).isEqualTo(TaskState.AWAITING_APPROVAL);
        tasks.approve("acme", "t15", "1", "alice", "acme:t15:1:2");
        assertThat(intents("t15")).extracting(i -> i[2]).containsExactly("acme:t15:1:2");
    }

    /** Issue 19: task ids are each tenant's own; two tenants' tasks of one id live apart, and a result reaches its own. */
    @Test
    void twoTenantsUseOneTaskIdAndEachResultReachesItsOwnTenantsTask() {
        tasks.submit(Plan.of("acme", "t16", step("1", "tickets", "create")));
        tasks.submit(Plan.of("globex", "t16", step("1", "email", "send"), step("2", "tickets", "create")));

        assertThat(tasks.withId("t16", null)).extracting(Task::tenantId).containsExactly("acme", "globex");
        assertThat(tasks.withId("t16", new String[] {"globex"})).extracting(Task::tenantId).containsExactly("globex");
        assertThat(tasks.steps("acme", "t16")).extracting(Step::key).containsExactly("acme:t16:1:1");
        assertThat(tasks.steps("globex", "t16")).extracting(Step::tool).containsExactly("email", "tickets");

        deliver(result("t16", "1", "tickets", "create", 1, ResultStatus.COMMITTED, "tk_1", false));
        assertThat(tasks.find("acme", "t16").orElseThrow().state()).isEqualTo(TaskState.SUCCEEDED);
        assertThat(tasks.steps("globex", "t16")).extracting(x -> x.state().name()).containsExactly("RUNNING", "PENDING");

        deliver(new ToolResult(UUID.randomUUID().toString(), UUID.randomUUID().toString(), "globex", "email", "send",
                "globex:t16:1:1", "sha256:" + "0".repeat(64), "t16", "1", 1, ResultStatus.COMMITTED, "em_1", null, null,
                1, false, "2026-12-01T00:00:00Z"));
        assertThat(tasks.steps("globex", "t16")).extracting(x -> x.state().name()).containsExactly("COMMITTED", "RUNNING");
        assertThat(tasks.steps("acme", "t16")).extracting(Step::externalObjectId).containsExactly("tk_1");
    }

    /** Issue 21: a poll batch of results is applied and handled at once, and ends as its results one by one would. */
    @Test
    void aBatchOfResultsOfSeveralTasksAdvancesEachTaskOnceAndOneOfTwoResultsOfATaskAfterTheOther() {
        tasks.submit(Plan.of("acme", "t30", step("1", "tickets", "create"), step("2", "payments", "charge")));
        tasks.submit(Plan.of("acme", "t31", step("1", "tickets", "create")));
        tasks.submit(Plan.of("acme", "t32", step("1", "tickets", "create"), step("2", "email", "send")));
        ToolResult first = result("t30", "1", "tickets", "create", 1, ResultStatus.COMMITTED, "tk_30", false);
        ToolResult other = result("t31", "1", "tickets", "create", 1, ResultStatus.COMMITTED, "tk_31", false);
        ToolResult noTask = new ToolResult(UUID.randomUUID().toString(), UUID.randomUUID().toString(), "acme",
                "tickets", "create", "k-plain", "sha256:" + "0".repeat(64), "no-such-task", "1", 1,
                ResultStatus.COMMITTED, "tk_x", null, null, 1, false, "2026-12-01T00:00:00Z");

        listener.onBatch(List.of(record(first), record(noTask), record(first), record(other)));

        assertThat(stepStates("t30")).containsExactly("COMMITTED", "RUNNING");
        assertThat(intents("t30")).extracting(i -> i[0]).as("the next step published once").containsExactly("1", "2");
        assertThat(tasks.find("acme", "t31").orElseThrow().state()).isEqualTo(TaskState.SUCCEEDED);
        assertThat(logReason(noTask)).isEqualTo("no step for this scope");

        ToolResult step1 = result("t32", "1", "tickets", "create", 1, ResultStatus.COMMITTED, "tk_32", false);
        listener.onBatch(List.of(record(step1)));
        ToolResult step2 = result("t32", "2", "email", "send", 1, ResultStatus.COMMITTED, "em_32", false);
        ToolResult stale = result("t32", "1", "tickets", "create", 1, ResultStatus.COMMITTED, "tk_32", true);
        listener.onBatch(List.of(record(withNewId(stale, true)), record(step2)));
        assertThat(tasks.find("acme", "t32").orElseThrow().state()).as("two results of one task, one after the other")
                .isEqualTo(TaskState.SUCCEEDED);
        assertThat(stepStates("t32")).containsExactly("COMMITTED", "COMMITTED");
    }

    @Test
    void anOperatorNameWithControlCharactersIsRefused() {
        tasks.submit(Plan.of("acme", "t14", step("1", "payments", "charge").withApproval()));
        assertThatThrownBy(() -> tasks.approve("acme", "t14", "1", "eve\nroot")).isInstanceOf(IllegalArgumentException.class);
        assertThat(tasks.find("acme", "t14").orElseThrow().state()).isEqualTo(TaskState.AWAITING_APPROVAL);
    }

    @Test
    void aRefusedPlanWritesNothing() {
        assertThatThrownBy(() -> tasks.submit(Plan.of("acme", "t6", step("mail", "email", "send").asIrreversible(),
                step("charge", "payments", "charge").withCompensation())))
                .isInstanceOf(PlanRefusedException.class).hasMessageContaining("'mail'").hasMessageContaining("'charge'");
        assertThat(tasks.find("acme", "t6")).isEmpty();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM agent.outbox_event", Integer.class)).isZero();
    }

    @Test
    void aStepWhoseIntentWouldBeRefusedIsRefusedAtSubmissionNotWhenItIsDue() {
        ObjectNode huge = JsonNodeFactory.instance.objectNode().put("n", 9007199254740993L); // beyond 2^53
        assertThatThrownBy(() -> tasks.submit(Plan.of("acme", "t7", step("1", "tickets", "create"),
                StepSpec.of("2", "payments", "charge", huge))))
                .isInstanceOf(PlanRefusedException.class).hasMessageStartingWith("step '2'");
        assertThat(tasks.find("acme", "t7")).isEmpty();
    }

    // ---- helpers

    private ToolResult result(String task, String stepId, String tool, String op, long version, ResultStatus status,
                              String externalId, boolean replayed) {
        boolean dry = stepId.endsWith(".dry-run");
        String base = stepId.endsWith(".compensate") ? stepId.substring(0, stepId.length() - 11)
                : dry ? stepId.substring(0, stepId.length() - 8) : stepId;
        int argVersion = tasks.steps("acme", task).stream().filter(s -> s.stepId().equals(base)).findFirst().orElseThrow()
                .argVersion();
        ToolResult.ResultError error = status == ResultStatus.COMMITTED || status == ResultStatus.COMPENSATED ? null
                : new ToolResult.ResultError(status == ResultStatus.NEEDS_REVIEW ? "OUTCOME_UNKNOWN" : "TOOL_REJECTED",
                "scripted");
        List<String> sent = intentIds(task, stepId);
        String answered = sent.isEmpty() ? UUID.randomUUID().toString() : sent.get(sent.size() - 1);
        return new ToolResult(UUID.randomUUID().toString(), answered, "acme", tool, op,
                dry ? StepKeys.dryRunKey("acme", task, base, argVersion) : StepKeys.key("acme", task, base, argVersion),
                "sha256:" + "0".repeat(64), task, stepId, version, status,
                externalId, null, error, 1, replayed, "2026-12-01T00:00:00Z");
    }

    /** {@code r} as an answer to the intent published under {@code intentMessageId}. */
    private static ToolResult answering(ToolResult r, String intentMessageId) {
        return new ToolResult(r.messageId(), intentMessageId, r.tenantId(), r.tool(), r.operation(),
                r.idempotencyKey(), r.requestHash(), r.taskId(), r.stepId(), r.callVersion(), r.status(),
                r.externalObjectId(), r.result(), r.error(), r.attempts(), r.replayed(), r.completedAt());
    }

    private static ToolResult withNewId(ToolResult r, boolean replayed) {
        return new ToolResult(UUID.randomUUID().toString(), UUID.randomUUID().toString(), r.tenantId(), r.tool(),
                r.operation(), r.idempotencyKey(), r.requestHash(), r.taskId(), r.stepId(), r.callVersion(), r.status(),
                r.externalObjectId(), r.result(), r.error(), r.attempts(), replayed, r.completedAt());
    }

    private void deliver(ToolResult r) {
        listener.onBatch(List.of(record(r)));
    }

    /** The record of {@code r} as the executor signs it. */
    private ConsumerRecord<byte[], byte[]> record(ToolResult r) {
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(Contract.RESULTS_TOPIC, 0, offset++,
                r.recordKey().getBytes(StandardCharsets.UTF_8), codec.write(r).getBytes(StandardCharsets.UTF_8));
        record.headers().add(Contract.CE_ID, r.messageId().getBytes(StandardCharsets.UTF_8));
        return TestKeys.sign(record, TestKeys.executor());
    }

    /** The task's intents in the outbox, in order: {stepId, operation, idempotencyKey}. */
    private List<String[]> intents(String task) {
        List<String[]> out = new ArrayList<>();
        for (String p : jdbc.queryForList("SELECT payload FROM agent.outbox_event WHERE aggregate_type = ? "
                + "ORDER BY created_at, id", String.class, Contract.INTENTS_TOPIC)) {
            var n = codec.parse(p.getBytes(StandardCharsets.UTF_8));
            if (task.equals(n.get("taskId").asString())) {
                out.add(new String[] {n.get("stepId").asString(), n.get("operation").asString(),
                        n.get("idempotencyKey").asString()});
            }
        }
        return out;
    }

    /**
     * The message ids the task's intents for a step id were published under, in order: what the executor answers (a
     * result's {@code intentMessageId} is the intent it received; the helper above answers the latest).
     */
    private List<String> intentIds(String task, String stepId) {
        List<String> ids = new ArrayList<>();
        for (String p : jdbc.queryForList("SELECT payload FROM agent.outbox_event WHERE aggregate_type = ? "
                + "ORDER BY created_at, id", String.class, Contract.INTENTS_TOPIC)) {
            var n = codec.parse(p.getBytes(StandardCharsets.UTF_8));
            if (task.equals(n.get("taskId").asString()) && stepId.equals(n.get("stepId").asString())) {
                ids.add(n.get("messageId").asString());
            }
        }
        return ids;
    }

    /** The arguments of the task's first intent for a step id. */
    private String intentArguments(String task, String stepId) {
        for (String p : jdbc.queryForList("SELECT payload FROM agent.outbox_event WHERE aggregate_type = ? "
                + "ORDER BY created_at, id", String.class, Contract.INTENTS_TOPIC)) {
            var n = codec.parse(p.getBytes(StandardCharsets.UTF_8));
            if (task.equals(n.get("taskId").asString()) && stepId.equals(n.get("stepId").asString())) {
                return n.get("arguments").toString();
            }
        }
        return null;
    }

    private List<String> stepStates(String task) {
        return tasks.steps("acme", task).stream().map(s -> s.state().name()).toList();
    }

    /** The task's states as its events reported them, in version order. */
    private List<String> events(String task) {
        return jdbc.queryForList("SELECT payload FROM agent.outbox_event WHERE aggregate_type = ? ORDER BY created_at",
                String.class, TaskEvents.DEFAULT_TOPIC).stream()
                .map(p -> codec.parse(p.getBytes(StandardCharsets.UTF_8)))
                .filter(n -> task.equals(n.get("taskId").asString()))
                .map(n -> n.get("state").asString()).toList();
    }
}
