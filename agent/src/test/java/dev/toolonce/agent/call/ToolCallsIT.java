package dev.toolonce.agent.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.toolonce.agent.AgentSchema;
import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.agent.results.ResultHandler;
import dev.toolonce.agent.results.ResultListener;
import dev.toolonce.agent.results.StepResults;
import dev.toolonce.jdbc.InboxStore;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.TestStack;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * {@link ToolCalls} on a real PostgreSQL, its answers applied by the real result consumer path ({@link ResultListener}:
 * decoder, signature, inbox, step results, handlers) from records signed as the executor signs them. "Another
 * instance" is a second listener on the same database without this instance's hook: only the database tells the
 * waiting instance about its answer.
 */
class ToolCallsIT {
    private static final String SCHEMA = "agent";
    /** Longer than any wait below: a wait that ends proves the consumer's hook ended it, not the poll. */
    private static final Duration NO_POLL = Duration.ofMinutes(10);
    private final EventCodec codec = new EventCodec();
    private final List<ToolCalls> opened = new ArrayList<>();
    private DataSource ds;
    private JdbcTemplate jdbc;
    private TransactionTemplate tx;
    private IntentPublisher publisher;
    private long offset;

    @BeforeEach
    void setUp() {
        String url = TestStack.get().freshDatabase("calls");
        Flyway.configure().dataSource(url, "postgres", "").schemas(SCHEMA).defaultSchema(SCHEMA)
                .locations(AgentSchema.MIGRATIONS).placeholders(Map.of("publication", "calls_pub")).load().migrate();
        ds = TestStack.pooled(url);
        jdbc = new JdbcTemplate(ds);
        tx = new TransactionTemplate(new DataSourceTransactionManager(ds));
        publisher = new IntentPublisher(SCHEMA, Contract.INTENTS_TOPIC, "/it/agent", TestKeys.keyring());
    }

    @AfterEach
    void closeAll() {
        opened.forEach(ToolCalls::close);
    }

    @Test
    void aCallIsAnsweredAsSoonAsThisInstancesConsumerCommitsItsResult() {
        ToolCalls calls = calls(NO_POLL);
        ResultListener consumer = listener(calls.resultHandler());
        ToolIntent charge = charge("conv-1", "k-1", 1250);

        CompletableFuture<CallOutcome> answer = calls.call(charge);

        assertThat(answer).isNotDone();
        assertThat(intentsSent("k-1")).hasSize(1);
        deliver(consumer, committed(charge, intentsSent("k-1").get(0), 1, "ch_1"));
        await().atMost(Duration.ofSeconds(10)).until(answer::isDone);
        CallOutcome.Answered a = (CallOutcome.Answered) answer.join();
        assertThat(a.status()).isEqualTo(ResultStatus.COMMITTED);
        assertThat(a.result().get("chargeId").asString()).isEqualTo("ch_1");
        assertThat(a.externalObjectId()).isEqualTo("ch_1");
        assertThat(a.replayed()).as("this call asked for the effect itself").isFalse();
        assertThat(calls.waiting()).isZero();
    }

    @Test
    void anAnswerAppliedByAnotherInstanceEndsTheWaitThroughTheDatabase() {
        ToolCalls calls = calls(Duration.ofMillis(100));
        ResultListener otherInstance = listener();
        ToolIntent charge = charge("conv-2", "k-2", 900);

        CompletableFuture<CallOutcome> answer = calls.call(charge);
        deliver(otherInstance, committed(charge, intentsSent("k-2").get(0), 1, "ch_2"));

        await().atMost(Duration.ofSeconds(10)).until(answer::isDone);
        assertThat(((CallOutcome.Answered) answer.join()).externalObjectId()).isEqualTo("ch_2");
    }

    @Test
    void aBoundedWaitEndsPendingAndTheCallCanBeAwaitedAgainUntilAReviewIsResolved() {
        ToolCalls calls = calls(Duration.ofMillis(100));
        ResultListener consumer = listener(calls.resultHandler());
        ToolIntent charge = charge("conv-3", "k-3", 500);

        CallOutcome first = calls.call(charge, Duration.ofMillis(300));

        assertThat(first).isEqualTo(new CallOutcome.Pending(CallRef.of(charge), "PENDING"));
        assertThat(calls.waiting()).as("a wait that ended leaves nothing behind").isZero();
        String intent = intentsSent("k-3").get(0);
        deliver(consumer, result(charge, intent, 1, ResultStatus.NEEDS_REVIEW, null, "OUTCOME_UNKNOWN"));
        assertThat(calls.await(CallRef.of(charge), Duration.ofMillis(300)))
                .as("a call in review is not answered: a person decides")
                .isEqualTo(new CallOutcome.Pending(CallRef.of(charge), "NEEDS_REVIEW"));

        CompletableFuture<CallOutcome> again = calls.await(CallRef.of(charge));
        deliver(consumer, committed(charge, intent, 2, "ch_3"));

        CallOutcome.Answered a = (CallOutcome.Answered) again.orTimeout(10, java.util.concurrent.TimeUnit.SECONDS)
                .join();
        assertThat(a.status()).isEqualTo(ResultStatus.COMMITTED);
        assertThat(a.callVersion()).isEqualTo(2);
        assertThat(intentsSent("k-3")).as("waiting again sends nothing").hasSize(1);
    }

    @Test
    void theSameKeyAskedForAgainAfterARestartPublishesNothingAndGetsTheStoredAnswer() {
        ToolCalls beforeCrash = calls(NO_POLL);
        ResultListener consumer = listener(beforeCrash.resultHandler());
        ToolIntent charge = charge("conv-4", "k-4", 4200);
        CompletableFuture<CallOutcome> first = beforeCrash.call(charge);
        deliver(consumer, committed(charge, intentsSent("k-4").get(0), 1, "ch_4"));
        first.orTimeout(10, java.util.concurrent.TimeUnit.SECONDS).join();
        beforeCrash.close();

        ToolCalls afterRestart = calls(NO_POLL);
        CompletableFuture<CallOutcome> again = afterRestart.call(charge(charge.taskId(), "k-4", 4200));

        assertThat(again).as("answered from the row, at once").isDone();
        CallOutcome.Answered a = (CallOutcome.Answered) again.join();
        assertThat(a.replayed()).isTrue();
        assertThat(a.externalObjectId()).isEqualTo("ch_4");
        assertThat(a.result()).isEqualTo(((CallOutcome.Answered) first.join()).result());
        assertThat(intentsSent("k-4")).as("no second intent").hasSize(1);
    }

    @Test
    void theSameKeyAskedForAgainWhileInFlightWaitsForTheFirstRequestsAnswer() {
        ToolCalls crashed = calls(NO_POLL);
        ToolCalls rerun = calls(Duration.ofMillis(100));
        ResultListener consumer = listener(rerun.resultHandler());
        ToolIntent charge = charge("conv-5", "k-5", 77);
        CompletableFuture<CallOutcome> first = crashed.call(charge);

        CompletableFuture<CallOutcome> second = rerun.call(charge);

        assertThat(second).isNotDone();
        assertThat(intentsSent("k-5")).hasSize(1);
        deliver(consumer, committed(charge, intentsSent("k-5").get(0), 1, "ch_5"));
        CallOutcome.Answered a = (CallOutcome.Answered) second.orTimeout(10, java.util.concurrent.TimeUnit.SECONDS)
                .join();
        assertThat(a.replayed()).as("the re-run did not ask for the effect").isTrue();
        assertThat(a.externalObjectId()).isEqualTo("ch_5");
        assertThat(first).as("the first caller's wait has no poll and no hook here").isNotDone();
    }

    @Test
    void theSameKeyWithOtherArgumentsIsRefusedAsTheExecutorWouldWithoutAnIntent() {
        ToolCalls calls = calls(NO_POLL);
        calls.call(charge("conv-6", "k-6", 100));
        CallOutcome outcome = calls.call(charge("conv-6", "k-6", 999), Duration.ofSeconds(2));

        assertThat(outcome).isInstanceOf(CallOutcome.Answered.class);
        CallOutcome.Answered refused = (CallOutcome.Answered) outcome;

        assertThat(refused.status()).isEqualTo(ResultStatus.REJECTED);
        assertThat(refused.errorCode()).isEqualTo("IDEMPOTENCY_PARAMETER_MISMATCH");
        assertThat(intentsSent("k-6")).hasSize(1);
    }

    @Test
    void anIntentThatNamesNoConversationOrThatTheContractRefusesWritesNothing() {
        ToolCalls calls = calls(NO_POLL);
        ToolIntent noTask = new ToolIntent(null, "acme", "payments", "charge", "k-7",
                codec.parse("{\"amountCents\":1}".getBytes(StandardCharsets.UTF_8)), null, null, null);
        ToolIntent badTool = ToolCalls.intent("acme", "conv-7", "pay ments", "charge", "k-7b",
                codec.parse("{}".getBytes(StandardCharsets.UTF_8)));

        assertThatThrownBy(() -> calls.call(noTask)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("taskId");
        assertThatThrownBy(() -> calls.call(badTool)).isInstanceOf(IllegalArgumentException.class);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM agent.outbox_event", Long.class)).isZero();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM agent.agent_step", Long.class)).isZero();
        assertThat(calls.waiting()).isZero();
        assertThatThrownBy(() -> calls.await(new CallRef("acme", "conv-7", ToolCalls.CALL_STEP, "never")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void closingCancelsTheOpenWaitsButNotTheCall() {
        ToolCalls calls = calls(NO_POLL);
        ToolIntent charge = charge("conv-8", "k-8", 5);
        CompletableFuture<CallOutcome> answer = calls.call(charge);

        calls.close();

        assertThatThrownBy(answer::join).isInstanceOf(CancellationException.class);
        assertThat(calls(NO_POLL).find(CallRef.of(charge))).contains(new CallOutcome.Pending(CallRef.of(charge),
                "PENDING"));
    }

    private ToolCalls calls(Duration pollEvery) {
        ToolCalls calls = new ToolCalls(ds, tx, publisher, SCHEMA, pollEvery);
        opened.add(calls);
        return calls;
    }

    private ResultListener listener(ResultHandler... handlers) {
        return new ResultListener("it-agent", new InboxStore(jdbc, SCHEMA), new StepResults(jdbc, SCHEMA),
                TestKeys.keyring(), (r, code, message) -> {
                    throw new AssertionError("dead-lettered " + code + ": " + message);
                }, tx, () -> true, 3, new SimpleMeterRegistry(), List.of(handlers));
    }

    private ToolIntent charge(String conversation, String key, long cents) {
        return ToolCalls.intent("acme", conversation, "payments", "charge", key,
                codec.parse(("{\"amountCents\":" + cents + "}").getBytes(StandardCharsets.UTF_8)));
    }

    private ToolResult committed(ToolIntent i, String intentMessageId, long version, String chargeId) {
        return new ToolResult(UUID.randomUUID().toString(), intentMessageId, i.tenantId(), i.tool(), i.operation(),
                i.idempotencyKey(), "sha256:" + "0".repeat(64), i.taskId(), i.stepId(), version,
                ResultStatus.COMMITTED, chargeId, json("{\"chargeId\":\"" + chargeId + "\"}"), null, 1, false,
                "2026-12-04T00:00:00Z");
    }

    private ToolResult result(ToolIntent i, String intentMessageId, long version, ResultStatus status,
                              String externalId, String errorCode) {
        return new ToolResult(UUID.randomUUID().toString(), intentMessageId, i.tenantId(), i.tool(), i.operation(),
                i.idempotencyKey(), "sha256:" + "0".repeat(64), i.taskId(), i.stepId(), version, status, externalId,
                null, new ToolResult.ResultError(errorCode, "m"), 1, false, "2026-12-04T00:00:00Z");
    }

    private JsonNode json(String text) {
        return codec.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    private void deliver(ResultListener listener, ToolResult r) {
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(Contract.RESULTS_TOPIC, 0, offset++,
                r.recordKey().getBytes(StandardCharsets.UTF_8), codec.write(r).getBytes(StandardCharsets.UTF_8));
        record.headers().add(Contract.CE_ID, r.messageId().getBytes(StandardCharsets.UTF_8));
        listener.onBatch(List.of(TestKeys.sign(record, TestKeys.executor())));
    }

    /** The message ids of the intents in the outbox for a key, in order. */
    private List<String> intentsSent(String key) {
        List<String> ids = new ArrayList<>();
        for (String p : jdbc.queryForList("SELECT payload FROM agent.outbox_event ORDER BY created_at, id",
                String.class)) {
            JsonNode n = json(p);
            if (key.equals(n.get("idempotencyKey").asString())) {
                ids.add(n.get("messageId").asString());
            }
        }
        return ids;
    }
}
