package dev.toolonce.executor.compensation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.toolonce.core.adapter.Capability;
import dev.toolonce.core.adapter.ToolAdapter;
import dev.toolonce.core.adapter.ToolDescriptor;
import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.Compensation;
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
import dev.toolonce.executor.adapter.AdapterRegistry;
import dev.toolonce.executor.execution.CallFinisher;
import dev.toolonce.executor.execution.Completion;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * docs/protocol.md §17 at the ledger, on a real PostgreSQL (a fresh database per test): the executor's own
 * Completion, CompensationGateway, CompensationDriver and ReviewService against the real stores, with a scripted
 * tool adapter that records what it was asked to compensate.
 */
class CompensationLedgerIT {
    private static final String SCHEMA = "executor";

    private final ScriptedTool tool = new ScriptedTool();
    private JdbcTemplate jdbc;
    private TransactionTemplate tx;
    private ToolCallStore calls;
    private ToolCallCompensations holds;
    private ToolCallClaims claims;
    private Completion completion;
    private CompensationGateway gateway;
    private CompensationDriver driver;
    private ReviewService reviews;

    @BeforeEach
    void setUp() {
        String url = TestStack.get().freshDatabase("compensation");
        Flyway.configure().dataSource(url, "postgres", "").schemas(SCHEMA).defaultSchema(SCHEMA)
                .locations("classpath:db/migration/executor").placeholders(Map.of("publication", "comp_pub"))
                .load().migrate();
        DataSource ds = TestStack.pooled(url);
        jdbc = new JdbcTemplate(ds);
        tx = new TransactionTemplate(new DataSourceTransactionManager(ds));
        calls = new ToolCallStore(jdbc, SCHEMA);
        claims = new ToolCallClaims(jdbc, SCHEMA);
        holds = new ToolCallCompensations(jdbc, SCHEMA);
        CallFinisher finisher = new CallFinisher(calls, new PendingReplyStore(jdbc, SCHEMA), new ResultEvents(
                new OutboxStore(jdbc, SCHEMA), TestKeys.keyring(), new EventCodec(), "results", "/it/executor", Clock.systemUTC()));
        ExecutorStats stats = new ExecutorStats(new SimpleMeterRegistry());
        gateway = new CompensationGateway(new AdapterRegistry(Map.of("payments", tool)), calls, List.of("payments"));
        RetryPolicy retry = new RetryPolicy(Duration.ofMillis(50), Duration.ofMillis(100), 3);
        completion = new Completion(calls, finisher, gateway, new CallLifecycle(retry),
                new RetryBudget(10_000, Duration.ofMinutes(1), Clock.systemUTC()), tx, stats,
                new PausedToolStore(jdbc, SCHEMA));
        driver = new CompensationDriver(calls, holds, finisher, new CallLifecycle(retry), tx, stats, Duration.ofMillis(50));
        reviews = new ReviewService(calls, holds, finisher, new CallLifecycle(retry), new ReviewAuditStore(jdbc, SCHEMA), tx, stats);
    }

    @Test
    void aCommittedChargeIsRefundedOnceUnderTheDerivedKeyAndReportedCompensated() {
        ToolCall charge = commit("k1", "ch_1");
        ToolCall comp = planCompensation(charge.scope());

        assertThat(claimAll()).as("held while the driver has not looked").isEmpty();
        driver.tick();
        assertThat(state(charge)).isEqualTo(CallState.COMPENSATING);
        ToolCall claimed = claimOne(comp.scope());
        tool.next.add(new ToolOutcome.Applied("re_1", "{\"id\":\"re_1\"}"));
        completion.record(claimed, gateway.execute(claimed));
        assertThat(state(comp)).isEqualTo(CallState.COMMITTED);

        driver.tick();
        assertThat(state(charge)).isEqualTo(CallState.COMPENSATED);
        assertThat(tool.compensated).containsExactly("ch_1");
        assertThat(tool.keys).containsExactly(ProviderKey.compensationOf(charge.scope()).value());
        assertThat(history(charge)).containsSubsequence("COMMITTED", "COMPENSATING", "COMPENSATED");
        assertThat(jdbc.queryForList("SELECT payload FROM executor.outbox_event ORDER BY created_at", String.class))
                .anyMatch(p -> p.contains("\"status\":\"COMPENSATED\"") && p.contains("\"operation\":\"charge\""))
                .anyMatch(p -> p.contains("\"status\":\"COMMITTED\"") && p.contains("charge.compensate"));
    }

    @Test
    void aCompensationWaitsWhileItsOriginalIsUnknownAndIsSentOnlyOnceItCommitted() {
        ToolCall charge = claimOne(plan(new CallScope("acme", "payments", "charge", "k2"), "{\"amount\":1}").scope());
        completion.record(charge, new ToolOutcome.Indeterminate("reset after send"));
        assertThat(state(charge)).isEqualTo(CallState.UNKNOWN);
        ToolCall comp = planCompensation(charge.scope());

        driver.tick();
        assertThat(holds.heldCompensations(10)).extracting(ToolCallCompensations.HeldCompensation::id).containsExactly(comp.id());
        assertThat(claimAll()).isEmpty();

        // reconciled: found — the original commits with its id, then the compensation may go
        ToolCall unknown = calls.findById(charge.id()).orElseThrow();
        tx.execute(s -> calls.finish(unknown, CallState.UNKNOWN, new Move.Commit("ch_2", null)));
        driver.tick();
        assertThat(state(charge)).isEqualTo(CallState.COMPENSATING);
        assertThat(claimOne(comp.scope()).id()).isEqualTo(comp.id());
    }

    @Test
    void aCompensationThatFailsFinallyLeavesTheOriginalInReviewNeverCompensated() {
        ToolCall charge = commit("k3", "ch_3");
        ToolCall comp = planCompensation(charge.scope());
        driver.tick();
        ToolCall claimed = claimOne(comp.scope());
        tool.next.add(new ToolOutcome.Rejected("TOOL_REJECTED", "refund refused"));
        completion.record(claimed, gateway.execute(claimed));
        assertThat(state(comp)).isEqualTo(CallState.FAILED_FINAL);

        driver.tick();
        ToolCall original = calls.findById(charge.id()).orElseThrow();
        assertThat(original.state()).isEqualTo(CallState.NEEDS_REVIEW);
        assertThat(original.errorCode()).isEqualTo(CallLifecycle.COMPENSATION_FAILED);
    }

    @Test
    void aCompensationWhoseOutcomeIsUnknownCannotBeLookedUpAndGoesToReview() {
        ToolCall comp = planCompensation(commit("k4", "ch_4").scope());
        driver.tick();
        ToolCall claimed = claimOne(comp.scope());
        assertThat(gateway.lookup(claimed)).isInstanceOf(LookupOutcome.CannotTell.class);
    }

    @Test
    void aCompensationOfNothingIsRefusedNotCompensable() {
        ToolCall comp = planCompensation(new CallScope("acme", "payments", "charge", "never-charged"));
        driver.tick();
        ToolCall claimed = claimOne(comp.scope());
        ToolOutcome outcome = gateway.execute(claimed);
        assertThat(outcome).isInstanceOfSatisfying(ToolOutcome.Rejected.class,
                r -> assertThat(r.code()).isEqualTo(CompensationGateway.NOT_COMPENSABLE));
        assertThat(tool.compensated).isEmpty();
    }

    @Test
    void anOperatorCompensatesACallInReview() {
        ToolCall charge = claimOne(plan(new CallScope("acme", "payments", "charge", "k5"), "{\"amount\":1}").scope());
        completion.record(charge, ToolOutcome.Rejected.forReview("KEY_REUSED", "provider says reused"));
        assertThat(state(charge)).isEqualTo(CallState.NEEDS_REVIEW);
        assertThatThrownBy(() -> reviews.resolve(charge.scope(), Event.Action.COMPENSATE, null, "op", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("external id");

        reviews.resolve(charge.scope(), Event.Action.COMPENSATE, "ch_5", "op", "found it, undo it");
        assertThat(state(charge)).isEqualTo(CallState.COMPENSATING);
        ToolCall claimed = claimOne(Compensation.of(charge.scope()));
        tool.next.add(new ToolOutcome.Applied("re_5", null));
        completion.record(claimed, gateway.execute(claimed));
        driver.tick();
        assertThat(state(charge)).isEqualTo(CallState.COMPENSATED);
        assertThat(tool.compensated).containsExactly("ch_5");
    }

    @Test
    void anOperationNamedLikeACompensationIsRefusedAtStartUp() {
        ScriptedTool odd = new ScriptedTool(Set.of("charge", "charge.compensate"));
        assertThatThrownBy(() -> new CompensationGateway(new AdapterRegistry(Map.of("payments", odd)), calls,
                List.of("payments"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("toolonce.executor.tools.payments.operations.charge.compensate");
        assertThat(gateway.supports("payments", "charge.compensate")).isTrue();
        assertThat(gateway.supports("payments", "refund.compensate")).isFalse();
    }

    // ---- helpers

    private ToolCall commit(String key, String externalId) {
        ToolCall claimed = claimOne(plan(new CallScope("acme", "payments", "charge", key), "{\"amount\":1}").scope());
        completion.record(claimed, new ToolOutcome.Applied(externalId, null));
        assertThat(state(claimed)).isEqualTo(CallState.COMMITTED);
        return claimed;
    }

    private ToolCall plan(CallScope scope, String args) {
        return tx.execute(s -> calls.insertPlanned(new ToolCallStore.NewCall(scope, ProviderKey.of(scope),
                new RequestHash("sha256:" + "0".repeat(64)), args, "task-1", "1", "m-" + scope.recordKey(), null)))
                .orElseThrow();
    }

    /** What intake does with a compensation intent: plan it and hold it, in one transaction. */
    private ToolCall planCompensation(CallScope original) {
        CallScope scope = Compensation.of(original);
        return tx.execute(s -> {
            ToolCall c = calls.insertPlanned(new ToolCallStore.NewCall(scope, ProviderKey.of(scope),
                    new RequestHash("sha256:" + "1".repeat(64)), "{}", "task-1", "1-comp", "mc-" + scope, null))
                    .orElseThrow();
            assertThat(holds.holdCompensation(c.id())).isTrue();
            return c;
        });
    }

    private List<ToolCall> claimAll() {
        return tx.execute(s -> claims.claim("it", 50, Duration.ofSeconds(30)));
    }

    private ToolCall claimOne(CallScope scope) {
        ToolCall[] got = new ToolCall[1];
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            got[0] = claimAll().stream().filter(c -> c.scope().equals(scope)).findFirst().orElse(null);
            return got[0] != null;
        });
        return got[0];
    }

    private CallState state(ToolCall c) {
        return calls.findById(c.id()).orElseThrow().state();
    }

    private List<String> history(ToolCall c) {
        return jdbc.queryForList("SELECT to_state FROM executor.tool_call_attempt WHERE call_id = ? ORDER BY id",
                String.class, c.id());
    }

    /** A payments-like tool whose compensation answers what the test queued. */
    static final class ScriptedTool implements ToolAdapter {
        final Deque<ToolOutcome> next = new ArrayDeque<>();
        final List<String> compensated = new CopyOnWriteArrayList<>();
        final List<String> keys = new CopyOnWriteArrayList<>();
        private final ToolDescriptor descriptor;

        ScriptedTool() {
            this(Set.of("charge"));
        }

        ScriptedTool(Set<String> operations) {
            descriptor = new ToolDescriptor("payments", operations,
                    Set.of(Capability.NATIVE_IDEMPOTENCY, Capability.LOOKUP_BY_KEY, Capability.COMPENSATION),
                    Duration.ofHours(24), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
                    Duration.ofSeconds(30), Duration.ZERO);
        }

        @Override
        public ToolDescriptor descriptor() {
            return descriptor;
        }

        @Override
        public ToolOutcome execute(ToolCall call) {
            throw new AssertionError("the test records the originals' outcomes itself");
        }

        @Override
        public LookupOutcome lookup(ToolCall call) {
            return new LookupOutcome.CannotTell("scripted");
        }

        @Override
        public ToolOutcome compensate(ToolCall original) {
            compensated.add(original.externalObjectId());
            keys.add(ProviderKey.compensationOf(original.scope()).value());
            return next.isEmpty() ? new ToolOutcome.Applied("re_x", null) : next.poll();
        }
    }
}
