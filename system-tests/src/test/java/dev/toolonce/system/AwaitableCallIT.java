package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.agent.call.CallKeys;
import dev.toolonce.agent.call.CallOutcome;
import dev.toolonce.agent.call.ToolCalls;
import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 22, point 1, end to end: the test JVM is an agent application that calls tools through {@link ToolCalls}; the
 * results are applied by another process (inbox-consumer, the agent side's consumer), so every wait here ends through
 * the database. Effects are counted at the sandbox's ledger.
 */
class AwaitableCallIT {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static Fixtures f;
    private static DataSource ds;
    private static final List<ToolCalls> opened = new ArrayList<>();

    @BeforeAll
    static void setUp() throws Exception {
        f = new Fixtures(SystemStack.get());
        f.clearFaults();
        ds = TestStack.pooled(f.stack.jdbcUrl);
    }

    @AfterAll
    static void tearDown() {
        opened.forEach(ToolCalls::close);
        f.close();
    }

    @Test
    void aCallIsAnsweredOnceAndAskedForAgainAfterARestartItIsTheStoredAnswerWithoutASecondEffect() throws Exception {
        String key = CallKeys.business(f.tenant, "payments", "charge", "order-1");
        ToolCalls agent = calls();
        long started = System.nanoTime();

        CallOutcome outcome = agent.call(charge("conv-1", key), WAIT);

        long micros = (System.nanoTime() - started) / 1_000;
        assertThat(outcome).isInstanceOf(CallOutcome.Answered.class);
        CallOutcome.Answered first = (CallOutcome.Answered) outcome;
        assertThat(first.status()).isEqualTo(ResultStatus.COMMITTED);
        assertThat(first.replayed()).isFalse();
        assertThat(first.externalObjectId()).isNotBlank();
        System.out.printf("awaitable call, happy path through the stack: %d ms%n", micros / 1_000);
        agent.close();

        ToolCalls restarted = calls();
        CompletableFuture<CallOutcome> again = restarted.call(charge("conv-1", key));

        assertThat(again).as("answered from the agent's row, at once").isDone();
        CallOutcome.Answered second = (CallOutcome.Answered) again.join();
        assertThat(second.replayed()).isTrue();
        assertThat(second.externalObjectId()).isEqualTo(first.externalObjectId());
        assertThat(second.result()).isEqualTo(first.result());
        assertThat(f.effect(f.tenant + ":order-1").path("count").asInt()).as("one charge at the sandbox").isEqualTo(1);
    }

    @Test
    void thirtyTwoConcurrentCallsUnderOneKeyMakeOneEffectAndAllGetItsAnswer() throws Exception {
        String key = CallKeys.business(f.tenant, "payments", "charge", "order-32");
        ToolCalls agent = calls();
        ExecutorService pool = Executors.newFixedThreadPool(32);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<CallOutcome>> answers = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            answers.add(pool.submit(() -> {
                start.await();
                return agent.call(charge("conv-32", key), WAIT);
            }));
        }
        start.countDown();

        List<String> charges = new ArrayList<>();
        for (Future<CallOutcome> a : answers) {
            CallOutcome o = a.get();
            assertThat(o).isInstanceOf(CallOutcome.Answered.class);
            assertThat(((CallOutcome.Answered) o).status()).isEqualTo(ResultStatus.COMMITTED);
            charges.add(((CallOutcome.Answered) o).externalObjectId());
        }
        pool.shutdown();
        assertThat(charges).hasSize(32).containsOnly(charges.get(0));
        assertThat(f.effect(f.tenant + ":order-32").path("count").asInt()).as("one charge at the sandbox").isEqualTo(1);
    }

    private ToolCalls calls() {
        ToolCalls calls = new ToolCalls(ds, new TransactionTemplate(new DataSourceTransactionManager(ds)),
                new IntentPublisher("agent", Contract.INTENTS_TOPIC, "/agents/calls-it", TestKeys.keyring()), "agent",
                Duration.ofMillis(50));
        opened.add(calls);
        return calls;
    }

    private ToolIntent charge(String conversation, String key) {
        String opId = key.substring(key.lastIndexOf(':') + 1);
        ObjectNode args = JsonNodeFactory.instance.objectNode().put("opId", f.tenant + ":" + opId)
                .put("amount", 1250).put("currency", "EUR");
        return ToolCalls.intent(f.tenant, f.tenant + "-" + conversation, "payments", "charge", key, args);
    }
}
