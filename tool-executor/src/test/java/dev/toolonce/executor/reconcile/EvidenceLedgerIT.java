package dev.toolonce.executor.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.toolonce.core.adapter.Capability;
import dev.toolonce.core.adapter.ToolDescriptor;
import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import dev.toolonce.core.lifecycle.CallLifecycle;
import dev.toolonce.core.lifecycle.Event;
import dev.toolonce.core.lifecycle.Move;
import dev.toolonce.core.outcome.LookupOutcome;
import dev.toolonce.core.outcome.ToolOutcome;
import dev.toolonce.core.retry.RetryBudget;
import dev.toolonce.core.retry.RetryPolicy;
import dev.toolonce.executor.execution.CallFinisher;
import dev.toolonce.executor.execution.Completion;
import dev.toolonce.executor.execution.ToolGateway;
import dev.toolonce.executor.ledger.PausedToolStore;
import dev.toolonce.executor.ledger.ReviewAuditStore;
import dev.toolonce.executor.ledger.ToolCallClaims;
import dev.toolonce.executor.ledger.ToolCallCompensations;
import dev.toolonce.executor.results.ResultEvents;
import dev.toolonce.executor.review.ReviewService;
import dev.toolonce.executor.metrics.ExecutorStats;
import dev.toolonce.jdbc.OutboxStore;
import dev.toolonce.executor.ledger.PendingReplyStore;
import dev.toolonce.executor.ledger.ToolCallStore;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.TestStack;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The protocol gaps of issue 7 at the ledger, on a real PostgreSQL (a fresh database per test): the
 * executor's own Completion, Reconciler and ReviewService against the real stores, with the tool replaced
 * by a scripted {@link ToolGateway} (the fault is injected through the collaborator).
 */
class EvidenceLedgerIT {
    private static final String SCHEMA = "executor";
    private static final int MAX_ATTEMPTS = 3;

    private final Scripted tools = new Scripted();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private JdbcTemplate jdbc;
    private TransactionTemplate tx;
    private ToolCallStore calls;
    private ToolCallCompensations holds;
    private ToolCallClaims claims;
    private CallFinisher finisher;
    private Completion completion;
    private Reconciler reconciler;
    private ReviewService reviews;
    private PausedToolStore pauses;
    private ExecutorStats stats;
    private RetryPolicy retry;
    private RetryBudget budget;
    private Reconciler started;

    @BeforeEach
    void setUp() {
        String url = TestStack.get().freshDatabase("evidence");
        Flyway.configure().dataSource(url, "postgres", "").schemas(SCHEMA).defaultSchema(SCHEMA)
                .locations("classpath:db/migration/executor").placeholders(Map.of("publication", "evidence_pub"))
                .load().migrate();
        DataSource ds = TestStack.pooled(url);
        jdbc = new JdbcTemplate(ds);
        tx = new TransactionTemplate(new DataSourceTransactionManager(ds));
        calls = new ToolCallStore(jdbc, SCHEMA);
        claims = new ToolCallClaims(jdbc, SCHEMA);
        holds = new ToolCallCompensations(jdbc, SCHEMA);
        finisher = new CallFinisher(calls, new PendingReplyStore(jdbc, SCHEMA), new ResultEvents(
                new OutboxStore(jdbc, SCHEMA), TestKeys.keyring(), new EventCodec(), "results", "/it/executor", Clock.systemUTC()));
        stats = new ExecutorStats(meters);
        pauses = new PausedToolStore(jdbc, SCHEMA);
        retry = new RetryPolicy(Duration.ofMillis(50), Duration.ofMillis(100), MAX_ATTEMPTS);
        budget = new RetryBudget(10_000, Duration.ofMinutes(1), Clock.systemUTC());
        completion = new Completion(calls, finisher, tools, new CallLifecycle(retry), budget, tx, stats, pauses);
        reconciler = reconciler(Duration.ofSeconds(30));
        reviews = new ReviewService(calls, holds, finisher, new CallLifecycle(retry), new ReviewAuditStore(jdbc, SCHEMA), tx, stats);
    }

    @AfterEach
    void tearDown() {
        if (started != null) {
            started.stop();
        }
    }

    private Reconciler reconciler(Duration lease) {
        return new Reconciler(calls, claims, finisher, tools, new CallLifecycle(retry), budget, tx, stats, lease, Duration.ofMillis(50),
                Duration.ZERO);
    }

    private ToolCall planAndClaim(String tool, String key) {
        return planAndClaim(tool, key, Duration.ofSeconds(30));
    }

    private ToolCall planAndClaim(String tool, String key, Duration lease) {
        CallScope scope = new CallScope("acme", tool, "op", key);
        tx.execute(s -> calls.insertPlanned(new ToolCallStore.NewCall(scope, ProviderKey.of(scope),
                new RequestHash("sha256:" + "0".repeat(64)), "{}", "task-" + key, "1", "m-" + key, null)));
        return claim(scope, lease);
    }

    /** Claims the scope's call as soon as it is due (a retry is scheduled a few milliseconds ahead). */
    private ToolCall claim(CallScope scope, Duration lease) {
        ToolCall[] got = new ToolCall[1];
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            got[0] = tx.execute(s -> claims.claim("it", 10, lease)).stream()
                    .filter(c -> c.scope().equals(scope)).findFirst().orElse(null);
            return got[0] != null;
        });
        return got[0];
    }

    private ToolCall current(ToolCall c) {
        return calls.findById(c.id()).orElseThrow();
    }

    private List<String> history(ToolCall c) {
        return jdbc.queryForList("SELECT to_state || ' ' || coalesce(detail, '') FROM executor.tool_call_attempt "
                + "WHERE call_id = ? ORDER BY id", String.class, c.id());
    }

    private List<String> published(ToolCall c) {
        return jdbc.queryForList("SELECT payload::jsonb ->> 'status' FROM executor.outbox_event "
                + "WHERE payload::jsonb ->> 'idempotencyKey' = ? ORDER BY created_at", String.class,
                c.scope().idempotencyKey());
    }

    private double counter(String name, String tag, String value) {
        var c = meters.find(name).tag(tag, value).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void aLateAppliedCommitsACallThatAwaitsReview() {
        ToolCall attempt = planAndClaim("payments", "late-review");
        tx.execute(s -> finisher.finish(attempt, CallState.STARTED, new Move.Review(
                "UNKNOWN_OUTCOME", "OUTCOME_UNKNOWN", "cannot tell")));

        // the same attempt's Applied arrives after its guard moved on
        Optional<ToolCall> recorded = completion.record(attempt, new ToolOutcome.Applied("ch_late", "{\"id\":\"ch_late\"}"));

        assertThat(recorded).as("the guard was lost").isEmpty();
        assertThat(current(attempt).state()).isEqualTo(CallState.COMMITTED);
        assertThat(current(attempt).externalObjectId()).isEqualTo("ch_late");
        assertThat(current(attempt).facts().evidenceOfEffect()).isTrue();
        assertThat(published(attempt)).containsExactly("NEEDS_REVIEW", "COMMITTED");
    }

    @Test
    void aLateAppliedOnAFailedFinalCallRaisesTheDuplicateAlarmAndAnOperatorRetryIsRefused() {
        ToolCall attempt = planAndClaim("payments", "late-final");
        tx.execute(s -> finisher.finish(attempt, CallState.STARTED, new Move.FailFinal(
                "RETRYABLE", "RETRIES_EXHAUSTED", "gave up")));

        completion.record(attempt, new ToolOutcome.Applied("ch_after_final", null));

        ToolCall alarmed = current(attempt);
        assertThat(alarmed.state()).isEqualTo(CallState.NEEDS_REVIEW);
        assertThat(alarmed.errorCode()).isEqualTo(CallLifecycle.DUPLICATE_EFFECT);
        assertThat(alarmed.errorMessage()).contains("ch_after_final").contains("FAILED_FINAL");
        assertThat(counter("toolonce.duplicates.alarm", "source", "late_applied")).isEqualTo(1);
        assertThat(published(attempt)).containsExactly("FAILED_FINAL", "NEEDS_REVIEW");
        assertThatThrownBy(() -> reviews.resolve(attempt.scope(), Event.Action.RETRY, null, "op", null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("duplicate alarm");
        assertThat(current(attempt).state()).isEqualTo(CallState.NEEDS_REVIEW);
    }

    @Test
    void anOperatorRetryIsRefusedWithEvidenceOrAnExternalIdAndAllowedWithoutEither() {
        ToolCall evidenced = planAndClaim("email", "evidence");
        ToolCall withId = planAndClaim("email", "with-id");
        ToolCall clean = planAndClaim("email", "clean");
        for (ToolCall c : List.of(evidenced, clean)) {
            tx.execute(s -> finisher.finish(c, CallState.STARTED,
                    new Move.Review("UNKNOWN_OUTCOME", "OUTCOME_UNKNOWN", "?")));
        }
        // in review with an external id: committed em_1, then sent to review (the duplicate alarm's path)
        tx.execute(s -> finisher.finish(withId, CallState.STARTED, new Move.Commit("em_1", null))
                .flatMap(c -> finisher.finish(c, CallState.COMMITTED, new Move.Review("DUPLICATE", "DUPLICATE_EFFECT", "?")))
                .orElseThrow());
        calls.noteEvidence(current(evidenced), "late Applied em_9 from fenced-out attempt at fence 1");

        assertThatThrownBy(() -> reviews.resolve(evidenced.scope(), Event.Action.RETRY, null, "op", null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("evidence");
        assertThatThrownBy(() -> reviews.resolve(withId.scope(), Event.Action.RETRY, null, "op", null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("external id (em_1)");
        assertThat(reviews.resolve(clean.scope(), Event.Action.RETRY, null, "op", null).state())
                .as("negative control").isEqualTo(CallState.FAILED_RETRYABLE);
        assertThat(reviews.resolve(evidenced.scope(), Event.Action.COMMIT, "em_9", "op", null).state())
                .isEqualTo(CallState.COMMITTED);
    }

    @Test
    void aServerErrorWithAttemptsUsedUpIsReconciledNotFailedAndTheLookupFindsTheEffect() {
        ToolCall c = planAndClaim("payments", "five-hundred");
        for (int attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
            ToolCall recorded = completion.record(c, ToolOutcome.Retryable.effectPossible("503", null)).orElseThrow();
            assertThat(recorded.state()).isEqualTo(CallState.FAILED_RETRYABLE);
            assertThat(recorded.errorCode()).isEqualTo(CallLifecycle.EFFECT_POSSIBLE);
            assertThat(recorded.facts().effectPossible()).isTrue();
            c = claim(c.scope(), Duration.ofSeconds(30));
        }
        // the last attempt is refused before applying — but an earlier 503 may have applied
        assertThat(completion.record(c, ToolOutcome.Retryable.notApplied("429", null)).orElseThrow().state())
                .isEqualTo(CallState.UNKNOWN);
        tools.lookups.add(new LookupOutcome.Found("ch_found", "{\"id\":\"ch_found\"}"));
        ToolCall call = c;
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            reconciler.tick();
            return current(call).state() == CallState.COMMITTED;
        });
        assertThat(current(call).externalObjectId()).isEqualTo("ch_found");
        assertThat(history(call)).noneMatch(h -> h.startsWith("FAILED_FINAL"));
        assertThat(published(call)).containsExactly("COMMITTED");
    }

    @Test
    void attemptsUsedUpOnRefusalsOnlyFailAtOnce() {
        ToolCall c = planAndClaim("payments", "refusals");
        for (int attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
            completion.record(c, ToolOutcome.Retryable.notApplied("429", null));
            c = claim(c.scope(), Duration.ofSeconds(30));
        }
        ToolCall last = completion.record(c, ToolOutcome.Retryable.notApplied("429", null)).orElseThrow();
        assertThat(last.state()).isEqualTo(CallState.FAILED_FINAL);
        assertThat(last.errorCode()).isEqualTo("RETRIES_EXHAUSTED");
    }

    @Test
    void aResendOutsideTheProviderIdempotencyWindowIsReconciledFirst() {
        tools.window = Duration.ofMillis(1500); // with a total timeout of 1 s
        ToolCall c = planAndClaim("payments", "window");
        assertThat(completion.record(c, ToolOutcome.Retryable.effectPossible("502", null)).orElseThrow().state())
                .as("first failure: well inside the window").isEqualTo(CallState.FAILED_RETRYABLE);
        ToolCall again = claim(c.scope(), Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> calls.sinceFirstAttempt(again).orElseThrow().compareTo(Duration.ofMillis(600)) > 0);
        ToolCall recorded = completion.record(again, ToolOutcome.Retryable.effectPossible("502", null)).orElseThrow();
        assertThat(recorded.state()).isEqualTo(CallState.UNKNOWN);
        assertThat(recorded.errorMessage()).contains("outside its idempotency window PT1.5S");
        assertThat(tools.sent).hasValue(0); // nothing resent; the reconciler decides
    }

    @Test
    void aTransientLookupFailureIsAskedAgainWithBackoffAndThenCommits() {
        ToolCall c = planAndClaim("payments", "lookup-blip");
        completion.record(c, new ToolOutcome.Indeterminate("timeout after sending"));
        tools.lookups.add(new LookupOutcome.Unavailable("lookup answered 503", null));
        tools.lookups.add(new LookupOutcome.Unavailable("lookup failed: timeout", Duration.ofMillis(10)));
        tools.lookups.add(new LookupOutcome.Found("ch_ok", null));

        await().atMost(Duration.ofSeconds(10)).until(() -> {
            reconciler.tick();
            return current(c).state().isTerminal() || current(c).state() == CallState.NEEDS_REVIEW;
        });
        assertThat(current(c).state()).isEqualTo(CallState.COMMITTED);
        assertThat(tools.lookupCount).hasValue(3);
        assertThat(history(c)).filteredOn(h -> h.startsWith("UNKNOWN LOOKUP_UNAVAILABLE")).hasSize(2);
        assertThat(history(c)).noneMatch(h -> h.startsWith("NEEDS_REVIEW"));
        assertThat(counter("toolonce.reconciliations", "outcome", "unavailable")).isEqualTo(2);
    }

    @Test
    void lookupsThatKeepFailingEndInReviewAfterABoundedNumber() {
        ToolCall c = planAndClaim("payments", "lookup-down");
        completion.record(c, new ToolOutcome.Indeterminate("reset"));
        for (int i = 0; i < 10; i++) {
            tools.lookups.add(new LookupOutcome.Unavailable("lookup answered 500", null));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            reconciler.tick();
            return current(c).state() == CallState.NEEDS_REVIEW;
        });
        assertThat(tools.lookupCount).hasValue(MAX_ATTEMPTS);
        assertThat(current(c).errorMessage()).contains("failed 3 times in a row");
    }

    @Test
    void aRefusedCredentialFailsTheCallAndPausesTheToolForTheTenantWhoseCredentialItWasOrForEveryTenant() {
        ToolCall own = planAndClaim("payments", "own-key-refused");
        completion.record(own, ToolOutcome.Rejected.credentialsRefused("TOOL_UNAUTHORIZED", "401", ToolOutcome.Pause.TENANT));
        assertThat(current(own).state()).isEqualTo(CallState.FAILED_FINAL);
        assertThat(pauses.paused(null)).extracting(r -> r.get("tool") + " " + r.get("tenant_id"))
                .containsExactly("payments acme");

        ToolCall shared = planAndClaim("email", "shared-key-refused");
        completion.record(shared, ToolOutcome.Rejected.credentialsRefused("TOOL_UNAUTHORIZED", "403",
                ToolOutcome.Pause.EVERY_TENANT));
        assertThat(pauses.paused(null)).extracting(r -> r.get("tool") + " " + r.get("tenant_id"))
                .containsExactly("email *", "payments acme");

        ToolCall plain = planAndClaim("tickets", "rejected");
        completion.record(plain, new ToolOutcome.Rejected("TOOL_REJECTED", "400"));
        assertThat(pauses.paused(null)).as("a plain refusal pauses nothing").hasSize(2);
    }

    @Test
    void theReconcilerSkipsPausedToolsAndHonoursEachToolsSettleDelay() {
        ToolCall paused = planAndClaim("payments", "paused");
        completion.record(paused, new ToolOutcome.Indeterminate("timeout"));
        tx.executeWithoutResult(s -> pauses.pause("payments", PausedToolStore.EVERY_TENANT, "401 in test"));
        tools.lookups.add(new LookupOutcome.Found("ch_p", null));
        reconciler.tick();
        reconciler.tick();
        assertThat(current(paused).state()).isEqualTo(CallState.UNKNOWN);
        assertThat(tools.lookupCount).hasValue(0);
        pauses.resume("payments", PausedToolStore.EVERY_TENANT, "operator");
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            reconciler.tick();
            return current(paused).state() == CallState.COMMITTED;
        });

        tools.settle = Map.of("slowtool", Duration.ofHours(1));
        ToolCall expired = planAndClaim("slowtool", "settle", Duration.ofMillis(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            reconciler.tick();
            return current(expired).state() == CallState.UNKNOWN;
        });
        reconciler.tick();
        assertThat(current(expired).state()).as("not looked at before its tool's settle delay").isEqualTo(CallState.UNKNOWN);
        assertThat(jdbc.queryForObject("SELECT next_attempt_at > clock_timestamp() + interval '50 minutes' "
                + "FROM executor.tool_call WHERE id = ?", Boolean.class, expired.id())).isTrue();
        assertThat(tools.lookupCount).hasValue(1);
    }

    @Test
    void aSlowLookupKeepsItsReconcilingLeaseByHeartbeatsWhileAnotherSweeperRuns() throws Exception {
        ToolCall c = planAndClaim("payments", "slow-lookup");
        completion.record(c, new ToolOutcome.Indeterminate("timeout"));
        tools.blockLookups = new CountDownLatch(1);
        tools.lookups.add(new LookupOutcome.Found("ch_slow", null));
        started = reconciler(Duration.ofSeconds(1)); // heartbeat every lease / 6
        started.start();
        Reconciler otherProcess = reconciler(Duration.ofSeconds(1));

        await().atMost(Duration.ofSeconds(10)).until(() -> tools.lookupCount.get() == 1);
        java.sql.Timestamp firstLease = leaseOf(c);
        // several lease periods pass while the lookup hangs; another reconciler sweeps all the while
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            otherProcess.tick();
            java.sql.Timestamp now = leaseOf(c);
            return now != null && now.getTime() - firstLease.getTime() > 3000;
        });
        assertThat(current(c).state()).isEqualTo(CallState.RECONCILING);
        tools.blockLookups.countDown();

        await().atMost(Duration.ofSeconds(10)).until(() -> current(c).state() == CallState.COMMITTED);
        assertThat(history(c)).noneMatch(h -> h.contains("lease expired"));
        assertThat(tools.lookupCount).hasValue(1);
    }

    private java.sql.Timestamp leaseOf(ToolCall c) {
        return jdbc.queryForObject("SELECT lease_expires_at FROM executor.tool_call WHERE id = ?",
                java.sql.Timestamp.class, c.id());
    }

    @Test
    void nulAndAMissingExternalIdNeverBreakTheCompletionAndAreFlagged() {
        ToolCall c = planAndClaim("payments", "nul");
        String nul = String.valueOf((char) 0);
        ToolCall done = completion.record(c, new ToolOutcome.Applied(null,
                "{\"note\":\"a\\" + "u0000b\",\"raw\":\"x" + nul + "\"}")).orElseThrow();
        assertThat(done.state()).isEqualTo(CallState.COMMITTED);
        assertThat(done.externalObjectId()).isNull();
        assertThat(done.resultJson()).doesNotContain(nul).doesNotContain("\\" + "u0000");
        assertThat(history(c)).anyMatch(h -> h.startsWith("COMMITTED " + Completion.NO_EXTERNAL_ID));
        assertThat(published(c)).containsExactly("COMMITTED"); // the stored payload is valid jsonb
        assertThat(meters.get("toolonce.applied.without_external_id").tag("tool", "payments").counter().count())
                .isEqualTo(1.0);

        ToolCall other = planAndClaim("payments", "nul-error");
        assertThat(completion.record(other, new ToolOutcome.Rejected("TOOL_REJECTED", "bad" + nul + "input"))
                .orElseThrow().errorMessage()).isEqualTo("bad\uFFFDinput");
    }

    /** A tool scripted by the test: lookups answer from a queue; nothing is ever sent by these tests. */
    private static final class Scripted implements ToolGateway {
        final Deque<LookupOutcome> lookups = new ArrayDeque<>();
        final AtomicInteger lookupCount = new AtomicInteger();
        final AtomicInteger sent = new AtomicInteger();
        volatile Duration window = Duration.ofHours(24);
        volatile Map<String, Duration> settle = Map.of();
        volatile CountDownLatch blockLookups;

        @Override
        public boolean supports(String tool, String operation) {
            return true;
        }

        @Override
        public ToolOutcome execute(ToolCall call) {
            sent.incrementAndGet();
            throw new AssertionError("these tests never send");
        }

        @Override
        public LookupOutcome lookup(ToolCall call) {
            lookupCount.incrementAndGet();
            CountDownLatch block = blockLookups;
            if (block != null) {
                try {
                    block.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            synchronized (lookups) {
                LookupOutcome next = lookups.poll();
                return next == null ? new LookupOutcome.CannotTell("script exhausted") : next;
            }
        }

        @Override
        public boolean retrySafe(String tool, String operation) {
            return true;
        }

        @Override
        public Duration settleDelay(String tool) {
            return settle.getOrDefault(tool, Duration.ZERO);
        }

        @Override
        public Map<String, Duration> settleDelays() {
            return settle;
        }

        @Override
        public Optional<ToolDescriptor> descriptor(String tool) {
            Set<Capability> caps = EnumSet.of(Capability.NATIVE_IDEMPOTENCY, Capability.LOOKUP_BY_KEY);
            return Optional.of(new ToolDescriptor(tool, Set.of("op"), caps, window, Duration.ofMillis(500),
                    Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(30), settleDelay(tool)));
        }
    }
}
