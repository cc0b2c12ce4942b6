package dev.toolonce.agent.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.agent.AgentSchema;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.testsupport.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link LocalCalls} on a real PostgreSQL: a method runs once per key whatever asks again, concurrently or later; a
 * claim whose database session ended mid-call (terminated here by {@code pg_terminate_backend}, as a killed process's
 * would end) is held for review — when its key is asked again, or when {@code inReview} looks — and is never run
 * again: a late answer is still written, a person's resolution stands.
 */
class LocalCallsIT {
    private static final String SCHEMA = "agent";
    private static final String THIS_DATABASE = "(SELECT oid FROM pg_database WHERE datname = current_database())";
    private DataSource ds;
    private JdbcTemplate jdbc;
    private final AtomicInteger effects = new AtomicInteger();

    @BeforeEach
    void setUp() {
        String url = TestStack.get().freshDatabase("local");
        Flyway.configure().dataSource(url, "postgres", "").schemas(SCHEMA).defaultSchema(SCHEMA)
                .locations(AgentSchema.MIGRATIONS).placeholders(Map.of("publication", "local_pub")).load().migrate();
        ds = TestStack.pooled(url);
        jdbc = new JdbcTemplate(ds);
    }

    @Test
    void aKeyRunsItsMethodOnceAndIsAnsweredFromItsRowAfterwards() {
        LocalCalls calls = new LocalCalls(ds, SCHEMA, "acme", Duration.ofSeconds(5));
        String hash = hash(2);

        CallOutcome first = calls.run("conv-1", "bookTable", "k-1", hash, key -> book(key));
        CallOutcome again = calls.run("conv-1", "bookTable", "k-1", hash, key -> book(key));

        assertThat(effects).hasValue(1);
        assertThat(answered(first).committed()).isTrue();
        assertThat(answered(first).replayed()).isFalse();
        assertThat(answered(first).result().get("booking").asString()).isEqualTo("b-k-1");
        assertThat(answered(again).replayed()).isTrue();
        assertThat(answered(again).result()).isEqualTo(answered(first).result());
    }

    @Test
    void otherArgumentsUnderAKeyAreRefusedWithoutRunningTheMethod() {
        LocalCalls calls = new LocalCalls(ds, SCHEMA, "acme", Duration.ofSeconds(5));
        calls.run("conv-2", "bookTable", "k-2", hash(2), key -> book(key));

        CallOutcome other = calls.run("conv-2", "bookTable", "k-2", hash(3), key -> book(key));

        assertThat(answered(other).status()).isEqualTo(ResultStatus.REJECTED);
        assertThat(answered(other).errorCode()).isEqualTo("IDEMPOTENCY_PARAMETER_MISMATCH");
        assertThat(effects).hasValue(1);
    }

    @Test
    void aMethodThatThrowsIsAnsweredFailedAndNotRunAgain() {
        LocalCalls calls = new LocalCalls(ds, SCHEMA, "acme", Duration.ofSeconds(5));
        CallOutcome failed = calls.run("conv-3", "bookTable", "k-3", hash(2), key -> {
            effects.incrementAndGet();
            throw new IllegalStateException("the restaurant's API answered 502");
        });
        CallOutcome again = calls.run("conv-3", "bookTable", "k-3", hash(2), key -> book(key));

        assertThat(answered(failed).status()).isEqualTo(ResultStatus.FAILED_FINAL);
        assertThat(answered(failed).errorCode()).isEqualTo("TOOL_ERROR");
        assertThat(answered(failed).errorMessage()).contains("502");
        assertThat(answered(again).status()).isEqualTo(ResultStatus.FAILED_FINAL);
        assertThat(answered(again).replayed()).isTrue();
        assertThat(effects).as("not run again: it may have had its effect").hasValue(1);
    }

    @Test
    void concurrentCallersOfOneKeyShareOneRun() throws Exception {
        LocalCalls calls = new LocalCalls(ds, SCHEMA, "acme", Duration.ofSeconds(30));
        ExecutorService callers = Executors.newFixedThreadPool(16);
        CyclicBarrier together = new CyclicBarrier(16);
        try {
            List<Future<CallOutcome>> all = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                all.add(callers.submit(() -> {
                    together.await();
                    return calls.run("conv-4", "bookTable", "k-4", hash(2), key -> {
                        sleep(200); // a method that takes a while: the others arrive while it runs
                        return book(key);
                    });
                }));
            }
            List<CallOutcome> outcomes = new ArrayList<>();
            for (Future<CallOutcome> f : all) {
                outcomes.add(f.get(60, TimeUnit.SECONDS));
            }

            assertThat(effects).hasValue(1);
            assertThat(outcomes).allSatisfy(o -> assertThat(answered(o).committed()).isTrue());
            assertThat(outcomes.stream().filter(o -> !answered(o).replayed())).hasSize(1);
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void aClaimWhoseSessionEndedMidCallIsHeldForReviewAndItsLateAnswerIsStillWritten() throws Exception {
        LocalCalls calls = new LocalCalls(ds, SCHEMA, "acme", Duration.ofMillis(300));
        Blocked running = blockedInside(calls, "k-5");

        CallOutcome whileRunning = calls.run("conv-5", "bookTable", "k-5", hash(2), key -> book(key));
        assertThat(whileRunning).as("its holder is alive: wait, then pending")
                .isEqualTo(new CallOutcome.Pending(whileRunning.ref(), "PENDING"));

        endTheHoldersSession();
        CallOutcome afterDeath = calls.run("conv-5", "bookTable", "k-5", hash(2), key -> book(key));
        assertThat(afterDeath).isEqualTo(new CallOutcome.Pending(afterDeath.ref(), "NEEDS_REVIEW"));
        assertThat(effects).as("not run again").hasValue(1);

        running.release.countDown();
        assertThat(answered(running.outcome.get(10, TimeUnit.SECONDS)).committed()).isTrue();
        CallOutcome later = calls.run("conv-5", "bookTable", "k-5", hash(2), key -> book(key));
        assertThat(answered(later).result().get("booking").asString())
                .as("the late answer was written through a new connection").isEqualTo("b-k-5");
        assertThat(answered(later).replayed()).isTrue();
        assertThat(effects).hasValue(1);
    }

    @Test
    void aClaimWhoseRunnerNeverComesBackIsFoundByInReviewAndResolvedByAPerson() throws Exception {
        LocalCalls calls = new LocalCalls(ds, SCHEMA, "acme", Duration.ofMillis(300));
        Blocked running = blockedInside(calls, "k-6");
        try {
            endTheHoldersSession();

            List<LocalCalls.Held> held = calls.inReview(10);
            assertThat(held).as("found without its key being asked again").extracting(h -> h.ref().idempotencyKey())
                    .containsExactly("k-6");
            assertThat(calls.resolve(held.get(0).ref(), true, "{\"booking\":\"b-found\"}", "alice",
                    "seen at the restaurant")).isTrue();
            assertThat(calls.resolve(held.get(0).ref(), false, null, "bob", "late")).as("resolved once").isFalse();
            assertThat(calls.inReview(10)).isEmpty();
        } finally {
            running.release.countDown();
        }
        running.outcome.get(10, TimeUnit.SECONDS);
        CallOutcome resolved = calls.run("conv-6", "bookTable", "k-6", hash(2), key -> book(key));
        assertThat(answered(resolved).result().get("booking").asString())
                .as("the person's resolution stands; the runner's late answer does not replace it").isEqualTo("b-found");
        assertThat(effects).hasValue(1);
    }

    /** A call of {@code key} whose method has had its effect and waits for {@code release} before it returns. */
    private Blocked blockedInside(LocalCalls calls, String key) throws InterruptedException {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        String conversation = "conv-" + key.substring(2);
        CompletableFuture<CallOutcome> outcome = CompletableFuture.supplyAsync(() ->
                calls.run(conversation, "bookTable", key, hash(2), k -> {
                    String answer = book(k);
                    inside.countDown();
                    awaitLatch(release);
                    return answer;
                }));
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
        return new Blocked(release, outcome);
    }

    private record Blocked(CountDownLatch release, CompletableFuture<CallOutcome> outcome) {
    }

    /** Ends the session that holds the call's advisory lock, as a killed process's would end. */
    private void endTheHoldersSession() {
        int terminated = jdbc.queryForObject("SELECT count(pg_terminate_backend(pid)) FROM pg_locks "
                + "WHERE locktype = 'advisory' AND granted AND database = " + THIS_DATABASE, Integer.class);
        assertThat(terminated).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = " + THIS_DATABASE,
                Integer.class) == 0);
    }

    @Test
    void aModelsCallIsKeyedByItsTurnAndADeliberateSecondCallRunsAgain() {
        LocalCalls calls = new LocalCalls(ds, SCHEMA, "acme", Duration.ofSeconds(5));
        String args = "{\"restaurant\":\"Chez Marie\",\"seats\":2}";

        String first = calls.call("bookTable", args, TurnKeys.ofTurn("acme", "conv-6", "1"), this::book);
        String rerun = calls.call("bookTable", args, TurnKeys.ofTurn("acme", "conv-6", "1"), this::book);
        String nextTurn = calls.call("bookTable", args, TurnKeys.ofTurn("acme", "conv-6", "2"), this::book);
        String notJson = calls.call("bookTable", "[1]", TurnKeys.ofTurn("acme", "conv-6", "3"), this::book);

        assertThat(first).contains("\"status\":\"COMMITTED\"").contains("\"replayed\":false");
        assertThat(rerun).contains("\"replayed\":true");
        assertThat(rerun.replace("\"replayed\":true", "")).isEqualTo(first.replace("\"replayed\":false", ""));
        assertThat(nextTurn).contains("\"replayed\":false");
        assertThat(notJson).contains("INVALID_ARGUMENTS");
        assertThat(effects).hasValue(2);
    }

    private String book(String key) {
        effects.incrementAndGet();
        return "{\"booking\":\"b-" + key + "\"}";
    }

    private static String hash(int seats) {
        ObjectNode args = JsonNodeFactory.instance.objectNode().put("seats", seats);
        return CallKeys.requestHash("acme", LocalCalls.TOOL, "bookTable", args);
    }

    private static CallOutcome.Answered answered(CallOutcome o) {
        assertThat(o).isInstanceOf(CallOutcome.Answered.class);
        return (CallOutcome.Answered) o;
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
