package dev.toolonce.agent.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.LockWaits;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The guarded update of {@link StepResults} for any database with the agent's DDL (docs/protocol.md §15): only a
 * newer call version changes a step, a rejection changes only the step whose own intent it answers, and a result
 * that changes nothing is logged with the reason. A subclass supplies a fresh, migrated agent database.
 */
abstract class StepResultsContract {
    private DataSource db;
    private JdbcTemplate jdbc;
    private StepResults steps;
    private String intentId;

    /** A new database holding the agent's empty tables in {@link #schema()}; called once per test. */
    protected abstract DataSource newAgentDatabase();

    protected String schema() {
        return "agent";
    }

    /** How many sessions wait on a row lock; PostgreSQL's answer by default. */
    protected int waitingOnALock(DataSource db) {
        return LockWaits.sessionsWaiting(db);
    }

    @BeforeEach
    void freshStep() throws Exception {
        db = newAgentDatabase();
        jdbc = new JdbcTemplate(db);
        steps = new StepResults(jdbc, schema());
        try (Connection c = db.getConnection()) {
            intentId = new IntentPublisher(schema(), Contract.INTENTS_TOPIC, "/it/agent", TestKeys.keyring()).publish(c,
                    new ToolIntent(null, "acme", "payments", "charge", "k-1",
                            JsonNodeFactory.instance.objectNode().put("amount", 1), "task", "1", null));
        }
    }

    private ToolResult result(long version, ResultStatus status, String intent, String errorCode) {
        return new ToolResult(UUID.randomUUID().toString(), intent, "acme", "payments", "charge", "k-1",
                "sha256:" + "a".repeat(64), "task", "1", version, status,
                status == ResultStatus.COMMITTED ? "ch_" + version : null, null,
                errorCode == null ? null : new ToolResult.ResultError(errorCode, "refused"), 1, false,
                "2026-01-01T00:00:00Z");
    }

    private static ToolResult committedFor(String task, String key, String intent) {
        return new ToolResult(UUID.randomUUID().toString(), intent, "acme", "payments", "charge", key,
                "sha256:" + "a".repeat(64), task, "1", 1, ResultStatus.COMMITTED, "ch_1", null, null, 1, false,
                "2026-01-01T00:00:00Z");
    }

    private ToolResult committed(long version) {
        return result(version, ResultStatus.COMMITTED, intentId, null);
    }

    private Map<String, Object> step() {
        return jdbc.queryForMap("SELECT status, call_version, external_object_id FROM " + schema()
                + ".agent_step WHERE task_id = 'task' AND step_id = '1'");
    }

    private String reasonLogged(ToolResult r) {
        return jdbc.queryForObject("SELECT reason FROM " + schema() + ".step_result_log WHERE result_message_id = ?",
                String.class, r.messageId());
    }

    @Test
    void onlyANewerVersionChangesTheStepAndTheOthersAreLoggedWithTheReason() {
        ToolResult v2 = committed(2);
        ToolResult stale = committed(1);
        ToolResult same = committed(2);

        assertThat(steps.apply(v2)).isTrue();
        assertThat(steps.apply(stale)).isFalse();
        assertThat(steps.apply(same)).isFalse();

        assertThat(step()).containsEntry("status", "COMMITTED").containsEntry("call_version", 2L)
                .containsEntry("external_object_id", "ch_2");
        assertThat(reasonLogged(v2)).isEqualTo("applied");
        assertThat(reasonLogged(stale)).contains("not older");
    }

    @Test
    void aBatchChangesEachStepAsApplyingItsResultsOneByOneWould() throws Exception {
        String second;
        try (Connection c = db.getConnection()) {
            second = new IntentPublisher(schema(), Contract.INTENTS_TOPIC, "/it/agent", TestKeys.keyring()).publish(c,
                    new ToolIntent(null, "acme", "payments", "charge", "k-2",
                            JsonNodeFactory.instance.objectNode().put("amount", 2), "task-2", "1", null));
        }
        ToolResult first = committed(2);
        ToolResult other = committedFor("task-2", "k-2", second);
        ToolResult noStep = committedFor("task-3", "k-3", "m-none");
        ToolResult reused = result(0, ResultStatus.REJECTED, intentId, "MESSAGE_ID_REUSED");

        assertThat(steps.applyAll(java.util.List.of(first, noStep, other, reused))).containsExactly(true, false, true,
                false);

        assertThat(step()).containsEntry("status", "COMMITTED").containsEntry("call_version", 2L)
                .containsEntry("external_object_id", "ch_2");
        assertThat(jdbc.queryForObject("SELECT external_object_id FROM " + schema()
                + ".agent_step WHERE task_id = 'task-2'", String.class)).isEqualTo("ch_1");
        assertThat(reasonLogged(first)).isEqualTo("applied");
        assertThat(reasonLogged(other)).isEqualTo("applied");
        assertThat(reasonLogged(noStep)).isEqualTo("no step for this scope");
        assertThat(reasonLogged(reused)).isEqualTo(ResultRule.Verdict.MESSAGE_ID_REUSED.reason());
        assertThat(steps.applyAll(java.util.List.of(committed(1), committed(3)))).as("two results of one step: "
                + "one after the other, the stale one refused and the newer applied").containsExactly(false, true);
        assertThat(step()).containsEntry("call_version", 3L).containsEntry("external_object_id", "ch_3");
    }

    private static ToolIntent charge(String task, String key) {
        return new ToolIntent(null, "acme", "payments", "charge", key,
                JsonNodeFactory.instance.objectNode().put("amount", 1), task, "1", null);
    }

    private int rows(String table, String where) {
        return jdbc.queryForObject("SELECT count(*) FROM " + schema() + "." + table + " WHERE " + where, Integer.class);
    }

    @Test
    void severalIntentsPublishedInOneTransactionEachGetTheirStepAndTheirOutboxRow() throws Exception {
        IntentPublisher publisher = new IntentPublisher(schema(), Contract.INTENTS_TOPIC, "/it/agent", TestKeys.keyring());
        java.util.List<String> ids;
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            ids = publisher.publishAll(c, java.util.List.of(charge("t-a", "k-a"), charge("t-b", "k-b"),
                    charge(null, "k-c")));
            c.commit();
        }
        assertThat(ids).hasSize(3).doesNotHaveDuplicates();
        assertThat(jdbc.queryForList("SELECT intent_message_id FROM " + schema()
                + ".agent_step WHERE task_id IN ('t-a', 't-b') ORDER BY task_id", String.class))
                .containsExactly(ids.get(0), ids.get(1));
        assertThat(rows("outbox_event", "id::text IN ('" + String.join("','", ids) + "')")).isEqualTo(3);

        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            java.util.List<String> again = publisher.publishAll(c, java.util.List.of(charge("t-a", "k-a"),
                    charge("t-a", "k-a")));
            c.commit();
            assertThat(rows("agent_step", "task_id = 't-a'")).as("one step, its messages added").isOne();
            assertThat(jdbc.queryForObject("SELECT cardinality(intent_message_ids) FROM " + schema()
                    + ".agent_step WHERE task_id = 't-a'", Integer.class)).isEqualTo(3);
            assertThat(again).hasSize(2);
        }

        ToolIntent bad = new ToolIntent(null, "acme/evil", "payments", "charge", "k-d",
                JsonNodeFactory.instance.objectNode(), "t-d", "1", null);
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> publisher.publishAll(c,
                            java.util.List.of(charge("t-e", "k-e"), bad)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("intent 1 of 2")
                    .hasMessageContaining("tenantId");
            c.commit();
        }
        assertThat(rows("agent_step", "task_id IN ('t-d', 't-e')")).as("nothing of a refused list is written").isZero();
    }

    @Test
    void ofTwoVersionsRacingInTwoTransactionsTheNewerStaysWhicheverCommitsFirst() throws Exception {
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(db));
        StepResults other = new StepResults(new JdbcTemplate(db), schema());
        CountDownLatch newerApplied = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Boolean> newer = pool.submit(() -> tx.execute(s -> {
                boolean applied = steps.apply(committed(3));
                newerApplied.countDown();
                awaitLatch(release);
                return applied;
            }));
            assertThat(newerApplied.await(10, TimeUnit.SECONDS)).isTrue();
            Future<Boolean> older = pool.submit(() -> tx.execute(s -> other.apply(committed(2))));
            await("the older result waits for the newer's transaction").atMost(Duration.ofSeconds(10))
                    .until(() -> waitingOnALock(db) >= 1);
            assertThat(older.isDone()).isFalse();
            release.countDown();

            assertThat(newer.get(10, TimeUnit.SECONDS)).isTrue();
            assertThat(older.get(10, TimeUnit.SECONDS)).as("the loser re-reads the row and changes nothing").isFalse();
            assertThat(step()).containsEntry("call_version", 3L).containsEntry("external_object_id", "ch_3");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aResultThatArrivesBeforeItsStepIsVisibleWaitsForTheStepsTransactionAndIsApplied() throws Exception {
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(db));
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection publishing = db.getConnection()) {
            publishing.setAutoCommit(false);
            String intent = new IntentPublisher(schema(), Contract.INTENTS_TOPIC, "/it/agent", TestKeys.keyring()).publish(publishing,
                    new ToolIntent(null, "acme", "payments", "charge", "k-early",
                            JsonNodeFactory.instance.objectNode().put("amount", 1), "early", "1", null));
            // Not committed yet: the result overtakes the step's transaction, as it can when logical decoding sends a
            // commit before PostgreSQL makes it visible.
            Future<Boolean> early = pool.submit(() -> tx.execute(s -> steps.apply(committedFor("early", "k-early", intent))));
            await("the result waits for the step's transaction").atMost(Duration.ofSeconds(10))
                    .until(() -> waitingOnALock(db) >= 1);
            assertThat(early.isDone()).isFalse();
            publishing.commit();

            assertThat(early.get(10, TimeUnit.SECONDS)).isTrue();
            assertThat(jdbc.queryForObject("SELECT status FROM " + schema()
                    + ".agent_step WHERE task_id = 'early' AND step_id = '1'", String.class)).isEqualTo("COMMITTED");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aResultForAStepThatNeverExistsChangesNothingAndLeavesNoStepBehind() {
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(db));
        ToolResult inTransaction = committedFor("nowhere", "k-nowhere", "intent-of-nobody");
        ToolResult standalone = committedFor("nowhere", "k-nowhere", "intent-of-nobody");

        Boolean appliedInTransaction = tx.execute(s -> steps.apply(inTransaction));
        assertThat(appliedInTransaction).isFalse();
        assertThat(steps.apply(standalone)).isFalse();

        assertThat(jdbc.queryForObject("SELECT count(*) FROM " + schema() + ".agent_step WHERE task_id = 'nowhere'",
                Integer.class)).isZero();
        assertThat(reasonLogged(inTransaction)).contains("no step");
        assertThat(reasonLogged(standalone)).contains("no step");
    }

    @Test
    void aRejectionChangesOnlyTheStepWhoseOwnIntentItAnswers() {
        ToolResult forAnother = result(0, ResultStatus.REJECTED, "some-other-intent", "IDEMPOTENCY_PARAMETER_MISMATCH");
        ToolResult forThis = result(0, ResultStatus.REJECTED, intentId, "UNKNOWN_TOOL");

        assertThat(steps.apply(forAnother)).isFalse();
        assertThat(step()).containsEntry("status", "PENDING");
        assertThat(steps.apply(forThis)).isTrue();
        assertThat(step()).containsEntry("status", "REJECTED");
    }

    @Test
    void aMessageIdReusedRejectionNeverChangesTheStep() {
        ToolResult reused = result(0, ResultStatus.REJECTED, intentId, "MESSAGE_ID_REUSED");

        assertThat(steps.apply(reused)).isFalse();
        assertThat(step()).containsEntry("status", "PENDING");
        assertThat(reasonLogged(reused)).contains("MESSAGE_ID_REUSED");
    }

    @Test
    void aResultIsLoggedOnceHoweverOftenItIsApplied() {
        ToolResult v1 = committed(1);
        steps.apply(v1);
        steps.apply(v1);

        assertThat(jdbc.queryForObject("SELECT count(*) FROM " + schema() + ".step_result_log WHERE result_message_id = ?",
                Integer.class, v1.messageId())).isEqualTo(1);
        assertThat(reasonLogged(v1)).isEqualTo("applied");
    }

    @Test
    void aStepRowRecordsWhichPartOfItsTaskStepItIs() {
        for (StepPart part : StepPart.values()) {
            steps.open(new ToolIntent(null, "acme", "payments", part.operation("charge"), "k-part",
                    JsonNodeFactory.instance.objectNode(), "parts", part.stepId("pay"), null), "intent-" + part);
        }
        assertThat(jdbc.queryForList("SELECT step_id || '|' || part || '|' || task_step_id FROM " + schema()
                + ".agent_step WHERE task_id = 'parts' ORDER BY step_id", String.class))
                .containsExactly("pay|ACTION|pay", "pay.compensate|COMPENSATION|pay", "pay.dry-run|DRY_RUN|pay");
    }

    @Test
    void theGuardedUpdateAgreesWithTheResultRuleInEveryCase() {
        // The SQL guard and ResultRule are two texts of one rule: every combination of its inputs goes to both, each
        // on a step of its own whose call has applied the given version; the log's reason is the rule's verdict.
        int n = 0;
        for (ResultStatus status : ResultStatus.values()) {
            for (String code : java.util.Arrays.asList(null, "UNKNOWN_TOOL", "MESSAGE_ID_REUSED")) {
                for (long version = 0; version <= 2; version++) {
                    for (long applied = -1; applied <= 2; applied++) {
                        for (boolean own : new boolean[] {true, false}) {
                            String stepId = "case-" + ++n;
                            String intent = "intent-" + stepId;
                            steps.open(new ToolIntent(null, "acme", "payments", "charge", "k-" + stepId,
                                    JsonNodeFactory.instance.objectNode(), "rule", stepId, null), intent);
                            jdbc.update("UPDATE " + schema() + ".agent_step SET call_version = ? WHERE task_id = 'rule'"
                                    + " AND step_id = ?", applied, stepId);
                            ToolResult r = new ToolResult(UUID.randomUUID().toString(), own ? intent : "another-intent",
                                    "acme", "payments", "charge", "k-" + stepId, "sha256:" + "a".repeat(64), "rule",
                                    stepId, version, status, null, null,
                                    code == null ? null : new ToolResult.ResultError(code, "m"), 1, false,
                                    "2026-01-01T00:00:00Z");
                            ResultRule.Verdict verdict = ResultRule.decide(status, code, version, applied, own);
                            String what = status + " " + code + " v" + version + " over v" + applied + ", own " + own;

                            assertThat(steps.apply(r)).as(what).isEqualTo(verdict == ResultRule.Verdict.APPLY);
                            assertThat(reasonLogged(r)).as(what).isEqualTo(verdict.reason());
                        }
                    }
                }
            }
        }
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
