package dev.toolonce.executor.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.toolonce.core.call.CallKind;
import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.IllegalTransitionException;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import dev.toolonce.core.lifecycle.Move;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The guarded updates of {@link ToolCallStore}, written once for any database that runs the ledger's DDL: who
 * wins a claim, a finish, a sweep or a heartbeat, and what the loser sees (docs/protocol.md §6, §7, §10). A
 * subclass supplies a fresh, migrated, empty ledger per test.
 */
abstract class ToolCallStoreContract {
    private static final String TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final Duration EXPIRED = Duration.ofMillis(1);

    private DataSource ledger;
    private ToolCallStore calls;
    private ToolCallClaims claims;

    /** A new database holding an empty ledger in {@link #schema()}; called once per test. */
    protected abstract DataSource newLedger();

    /** The schema of the ledger's tables. */
    protected String schema() {
        return PostgresLedgers.SCHEMA;
    }

    @BeforeEach
    void freshLedger() {
        ledger = newLedger();
        calls = store();
        claims = claims();
    }

    /** Another store over the same database, as another worker or process would have. */
    private ToolCallStore store() {
        return new ToolCallStore(new JdbcTemplate(ledger), schema());
    }

    /** Claims over the same database, as another worker or process would make them. */
    private ToolCallClaims claims() {
        return new ToolCallClaims(new JdbcTemplate(ledger), schema());
    }

    private static ToolCallStore.NewCall newCall(String key, String intent) {
        CallScope scope = new CallScope("acme", "payments", "charge", key);
        return new ToolCallStore.NewCall(scope, ProviderKey.of(scope), new RequestHash("sha256:" + "a".repeat(64)),
                "{\"amount\":1}", "task", "step", intent, TRACE);
    }

    private ToolCall planned(String key) {
        return calls.insertPlanned(newCall(key, "m-" + key)).orElseThrow();
    }

    private static Move committed(String externalId) {
        return new Move.Commit(externalId, "{\"ok\":true}");
    }

    private static Move retryable() {
        return new Move.Retry(Duration.ZERO, "RETRYABLE", false, "slow down");
    }

    @Test
    void aScopeIsPlannedOnceAndTheSecondPlanSeesNothingChanged() {
        ToolCall first = planned("k-1");
        Optional<ToolCall> second = calls.insertPlanned(newCall("k-1", "m-other"));

        assertThat(first.state()).isEqualTo(CallState.PLANNED);
        assertThat(first.fence()).isZero();
        assertThat(second).as("the loser of the plan is told nothing was inserted").isEmpty();
        assertThat(calls.find(first.scope())).get().extracting(ToolCall::intentMessageId).isEqualTo("m-k-1");
        assertThat(calls.find(first.scope())).get().extracting(ToolCall::traceparent)
                .as("the planning intent's trace, kept for the tool call and the answer").isEqualTo(TRACE);
    }

    @Test
    void aBatchOfPlansPlansEachNewScopeOnceInOrderAndAnswersPerCall() {
        ToolCall before = planned("taken");
        List<Optional<ToolCall>> planned = calls.insertAllPlanned(List.of(newCall("k-1", "m-1"), newCall("taken", "m-2"),
                newCall("k-2", "m-3"), newCall("k-1", "m-4")), ToolCallStore.Starting.NONE);

        assertThat(planned).hasSize(4);
        assertThat(planned.get(0)).get().satisfies(c -> {
            assertThat(c.state()).isEqualTo(CallState.PLANNED);
            assertThat(c.intentMessageId()).isEqualTo("m-1");
            assertThat(c.traceparent()).isEqualTo(TRACE);
        });
        assertThat(planned.get(1)).as("a scope planned before the batch").isEmpty();
        assertThat(planned.get(2)).get().extracting(ToolCall::intentMessageId).isEqualTo("m-3");
        assertThat(planned.get(3)).as("the second of a batch's twins meets the first").isEmpty();
        assertThat(calls.find(before.scope())).get().extracting(ToolCall::intentMessageId).isEqualTo("m-taken");
        assertThat(calls.find(planned.get(0).get().scope())).get().extracting(ToolCall::intentMessageId).isEqualTo("m-1");
        assertThat(calls.insertAllPlanned(List.of(), ToolCallStore.Starting.NONE)).isEmpty();
    }

    @Test
    void aBatchOfPlansStartsTheFirstCallsThatMayStartAsAClaimWouldAndPlansTheRest() {
        ToolCall taken = planned("taken");
        new PausedToolStore(new JdbcTemplate(ledger), schema()).pause("tickets", "acme", "credential refused");
        CallScope undo = new CallScope("acme", "payments", "charge.compensate", "k-0");
        CallScope ticket = new CallScope("acme", "tickets", "open", "t-1");
        List<Optional<ToolCall>> planned = calls.insertAllPlanned(List.of(newCall("k-1", "m-1"),
                new ToolCallStore.NewCall(undo, ProviderKey.of(undo), new RequestHash("sha256:" + "b".repeat(64)), "{}",
                        "task", "step", "m-undo", TRACE),
                new ToolCallStore.NewCall(ticket, ProviderKey.of(ticket), new RequestHash("sha256:" + "c".repeat(64)),
                        "{}", "task", "step", "m-ticket", TRACE),
                newCall("taken", "m-taken-again"), newCall("k-2", "m-2"), newCall("k-3", "m-3")),
                new ToolCallStore.Starting(3, "w-1", LEASE));

        // The first three that may start: k-1, the taken scope (which conflicts: its place goes unused), k-2.
        assertThat(planned.get(0)).get().satisfies(c -> {
            assertThat(c.state()).isEqualTo(CallState.STARTED);
            assertThat(c.fence()).isEqualTo(1);
            assertThat(c.attempts()).isEqualTo(1);
        });
        assertThat(planned.get(1)).as("a compensation waits for its hold").get().extracting(ToolCall::state)
                .isEqualTo(CallState.PLANNED);
        assertThat(planned.get(2)).as("its tool is paused for the tenant").get().extracting(ToolCall::state)
                .isEqualTo(CallState.PLANNED);
        assertThat(planned.get(3)).isEmpty();
        assertThat(planned.get(4)).get().extracting(ToolCall::state).isEqualTo(CallState.STARTED);
        assertThat(planned.get(5)).as("beyond the workers set aside").get().satisfies(c -> {
            assertThat(c.state()).isEqualTo(CallState.PLANNED);
            assertThat(c.fence()).isZero();
        });
        JdbcTemplate jdbc = new JdbcTemplate(ledger);
        for (int i : new int[] {0, 4}) {
            long id = planned.get(i).get().id();
            assertThat(jdbc.queryForList("SELECT lease_owner, lease_expires_at > clock_timestamp() AS leased,"
                    + " started_at IS NOT NULL AS started FROM " + schema() + ".tool_call WHERE id = ?", id))
                    .containsExactly(Map.of("lease_owner", "w-1", "leased", true, "started", true));
            assertThat(jdbc.queryForList("SELECT fence, coalesce(from_state, '-') AS from_state, to_state FROM "
                    + schema() + ".tool_call_attempt WHERE call_id = ?", id)).as("the claim's history row")
                    .containsExactly(Map.of("fence", 1L, "from_state", "-", "to_state", "STARTED"));
        }
        assertThat(claims().claim("w-2", 10, LEASE)).extracting(ToolCall::id).as("a walk takes none of the started")
                .containsExactly(taken.id(), planned.get(1).get().id(), planned.get(5).get().id());
        assertThat(calls.insertAllPlanned(List.of(newCall("k-4", "m-4")), ToolCallStore.Starting.NONE).get(0)).get()
                .extracting(ToolCall::state).isEqualTo(CallState.PLANNED);
    }

    @Test
    void aBatchOfPlansRefusesAPurgedScope() {
        ToolCall done = planned("done");
        ToolCall claimed = claims.claim("w-1", 10, LEASE).get(0);
        calls.finish(claimed, CallState.STARTED, committed("ch_1")).orElseThrow();
        assertThat(new ToolCallRetention(new JdbcTemplate(ledger), schema()).purgeTerminal(Duration.ZERO, 10)).isEqualTo(1);

        List<Optional<ToolCall>> planned = calls.insertAllPlanned(List.of(newCall("done", "m-late"),
                newCall("fresh", "m-fresh")), ToolCallStore.Starting.NONE);

        assertThat(planned.get(0)).as("the tombstone refuses the scope").isEmpty();
        assertThat(planned.get(1)).isPresent();
        assertThat(calls.find(done.scope())).isEmpty();
    }

    @Test
    void aClaimByIdTakesOnlyTheDueCallsNamedAndEachOnce() {
        ToolCall first = planned("k-1");
        ToolCall second = planned("k-2");
        ToolCall notNamed = planned("k-3");
        CallScope undo = new CallScope("acme", "payments", "charge.compensate", "k-1");
        ToolCall held = calls.insertPlanned(new ToolCallStore.NewCall(undo, ProviderKey.of(undo),
                new RequestHash("sha256:" + "b".repeat(64)), "{}", "task", "step", "m-undo", TRACE)).orElseThrow();
        assertThat(new ToolCallCompensations(new JdbcTemplate(ledger), schema()).holdCompensation(held.id())).isTrue();

        List<ToolCall> won = claims.claimByIds("w-1", List.of(second.id(), first.id(), held.id(), 999_999L), LEASE);
        List<ToolCall> again = claims().claimByIds("w-2", List.of(first.id(), second.id()), LEASE);

        assertThat(won).extracting(ToolCall::id).as("in id order; a held call and an unknown id are not taken")
                .containsExactly(first.id(), second.id());
        assertThat(won).allSatisfy(c -> {
            assertThat(c.state()).isEqualTo(CallState.STARTED);
            assertThat(c.fence()).isEqualTo(1);
            assertThat(c.attempts()).isEqualTo(1);
        });
        assertThat(again).as("a claimed call is not due").isEmpty();
        assertThat(claims.claim("w-3", 10, LEASE)).extracting(ToolCall::id).as("the walk finds what was not named")
                .containsExactly(notNamed.id());
        assertThat(claims.claimByIds("w-1", List.of(), LEASE)).isEmpty();
    }

    @Test
    void aClaimMovesPlannedToStartedWithFencePlusOneAndASecondClaimGetsNothing() {
        ToolCall call = planned("k-1");

        List<ToolCall> won = claims.claim("w-1", 10, LEASE);
        List<ToolCall> lost = claims().claim("w-2", 10, LEASE);

        assertThat(won).singleElement().satisfies(c -> {
            assertThat(c.id()).isEqualTo(call.id());
            assertThat(c.state()).isEqualTo(CallState.STARTED);
            assertThat(c.fence()).isEqualTo(1);
            assertThat(c.attempts()).isEqualTo(1);
        });
        assertThat(lost).isEmpty();
        assertThat(claims.stillHeld(won.get(0), CallState.STARTED)).isTrue();
    }

    @Test
    void concurrentClaimersTakeEveryDueCallExactlyOnce() throws Exception {
        int callsToClaim = 8;
        int claimers = 16;
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < callsToClaim; i++) {
            ids.add(planned("k-" + i).id());
        }
        CyclicBarrier start = new CyclicBarrier(claimers);
        ExecutorService pool = Executors.newFixedThreadPool(claimers);
        try {
            List<Future<List<ToolCall>>> claims = new ArrayList<>();
            for (int i = 0; i < claimers; i++) {
                ToolCallClaims own = claims();
                String owner = "w-" + i;
                claims.add(pool.submit(() -> {
                    start.await();
                    return own.claim(owner, 1, LEASE);
                }));
            }
            List<Long> won = Collections.synchronizedList(new ArrayList<>());
            for (Future<List<ToolCall>> f : claims) {
                f.get().forEach(c -> won.add(c.id()));
            }
            assertThat(won).as("one winner per call, no call twice").containsExactlyInAnyOrderElementsOf(ids);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void ofTwoFinishesUnderTheSameFenceTheFirstWinsAndTheSecondSeesEmpty() {
        planned("k-1");
        ToolCall claimed = claims.claim("w-1", 1, LEASE).get(0);

        Optional<ToolCall> first = calls.finish(claimed, CallState.STARTED, committed("ch_1"));
        Optional<ToolCall> second = store().finish(claimed, CallState.STARTED, retryable());

        assertThat(first).get().satisfies(c -> {
            assertThat(c.state()).isEqualTo(CallState.COMMITTED);
            assertThat(c.externalObjectId()).isEqualTo("ch_1");
            assertThat(c.callVersion()).isEqualTo(1);
            assertThat(c.terminalAt()).isNotNull();
        });
        assertThat(second).as("the loser learns it lost").isEmpty();
        assertThat(calls.findById(claimed.id())).get().extracting(ToolCall::state).isEqualTo(CallState.COMMITTED);
    }

    @Test
    void aGroupOfFinishesMovesEachCallAsItsOwnFinishWouldAndNotesOnlyTheWinners() {
        planned("k-1");
        planned("k-2");
        planned("k-3");
        List<ToolCall> claimed = claims.claim("w-1", 3, LEASE);
        ToolCall stale = claimed.get(1);
        calls.finish(stale, CallState.STARTED, retryable()).orElseThrow(); // someone else moved it first

        List<Optional<ToolCall>> done = store().finishAll(List.of(
                new ToolCallStore.Finish(claimed.get(2), CallState.STARTED, retryable()),
                new ToolCallStore.Finish(stale, CallState.STARTED, committed("ch_late")),
                new ToolCallStore.Finish(claimed.get(0), CallState.STARTED, committed("ch_1"))));

        assertThat(done.get(0)).get().satisfies(c -> {
            assertThat(c.id()).isEqualTo(claimed.get(2).id());
            assertThat(c.state()).isEqualTo(CallState.FAILED_RETRYABLE);
            assertThat(c.errorCode()).as("no effect possible").isNull();
            assertThat(c.errorMessage()).isEqualTo("slow down");
            assertThat(c.callVersion()).as("a retry is no new outcome").isZero();
            assertThat(c.terminalAt()).isNull();
        });
        assertThat(done.get(1)).as("its guard was lost").isEmpty();
        assertThat(done.get(2)).get().satisfies(c -> {
            assertThat(c.state()).isEqualTo(CallState.COMMITTED);
            assertThat(c.externalObjectId()).isEqualTo("ch_1");
            assertThat(c.resultJson()).isEqualTo("{\"ok\":true}");
            assertThat(c.callVersion()).isEqualTo(1);
            assertThat(c.terminalAt()).isNotNull();
        });
        assertThat(calls.findById(stale.id())).get().extracting(ToolCall::externalObjectId).isNull();
        JdbcTemplate jdbc = new JdbcTemplate(ledger);
        assertThat(jdbc.queryForList("SELECT to_state || ' ' || coalesce(detail, '') FROM " + schema()
                + ".tool_call_attempt WHERE from_state = 'STARTED' ORDER BY id", String.class))
                .as("one note per move that won, none for the lost guard")
                .containsExactlyInAnyOrder("FAILED_RETRYABLE ", "FAILED_RETRYABLE ", "COMMITTED ch_1");
    }

    @Test
    void anIllegalFinishThrowsAndChangesNothing() {
        ToolCall call = planned("k-1");

        assertThatThrownBy(() -> calls.finish(call, CallState.PLANNED, committed("ch_1")))
                .isInstanceOf(IllegalTransitionException.class);
        assertThat(calls.findById(call.id())).get().extracting(ToolCall::state).isEqualTo(CallState.PLANNED);
    }

    @Test
    void anExpiredLeaseIsSweptToUnknownWithANewFenceAndTheOldHolderLosesEveryWrite() {
        planned("k-1");
        ToolCall held = claims.claim("w-1", 1, EXPIRED).get(0);

        List<ToolCall> swept = await().atMost(Duration.ofSeconds(10))
                .until(() -> claims().sweepExpiredLeases(10, Duration.ZERO), s -> !s.isEmpty());

        assertThat(swept).singleElement().satisfies(c -> {
            assertThat(c.state()).isEqualTo(CallState.UNKNOWN);
            assertThat(c.fence()).isEqualTo(held.fence() + 1);
        });
        assertThat(claims.stillHeld(held, CallState.STARTED)).isFalse();
        assertThat(claims.heartbeat(CallState.STARTED, List.of(held), LEASE)).as("heartbeat of the swept").isEmpty();
        assertThat(calls.finish(held, CallState.STARTED, committed("ch_late"))).as("finish of the swept").isEmpty();
        assertThat(claims.sweepExpiredLeases(10, Duration.ZERO)).as("nothing is swept twice").isEmpty();
    }

    @Test
    void aHeartbeatExtendsOnlyCallsStillHeldWithTheirFence() {
        planned("k-1");
        planned("k-2");
        List<ToolCall> held = claims.claim("w-1", 2, LEASE);
        ToolCall stale = new ToolCall(held.get(1).id(), held.get(1).scope(), held.get(1).providerKey(),
                held.get(1).requestHash(), held.get(1).argumentsJson(), CallState.STARTED, held.get(1).fence() - 1,
                0, 1, null, null, null, null, null, null, null, null, null, held.get(1).facts());

        List<Long> extended = claims.heartbeat(CallState.STARTED, List.of(held.get(0), stale), LEASE);

        assertThat(extended).containsExactly(held.get(0).id());
    }

    @Test
    void aGroupOfFinishesAndHeartbeatsOverTheSameCallsWaitForEachOtherAndNeverDeadlock() throws Exception {
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(ledger));
        ToolCallClaims beating = claims();
        ExecutorService heart = Executors.newSingleThreadExecutor();
        try {
            for (int round = 0; round < 10; round++) {
                for (int i = 0; i < 20; i++) {
                    planned("r" + round + "-" + i);
                }
                List<ToolCall> held = claims.claim("w-1", 20, LEASE);
                List<ToolCall> descending = new ArrayList<>(held);
                descending.sort(Comparator.comparingLong(ToolCall::id).reversed());
                AtomicBoolean grouping = new AtomicBoolean(true);
                CountDownLatch beatOnce = new CountDownLatch(1);
                Future<Integer> beats = heart.submit(() -> {
                    int n = 0;
                    do {
                        beating.heartbeat(CallState.STARTED, held, LEASE);
                        beatOnce.countDown();
                        n++;
                    } while (grouping.get());
                    return n;
                });
                beatOnce.await();
                List<Optional<ToolCall>> done;
                try {
                    // Given in descending id order, as a group of completions may arrive.
                    done = tx.execute(s -> calls.finishAll(descending.stream()
                            .map(c -> new ToolCallStore.Finish(c, CallState.STARTED, committed("ch_" + c.id()))).toList()));
                } finally {
                    grouping.set(false);
                }
                assertThat(beats.get()).as("round %d: the heartbeats ran and none failed", round).isPositive();
                assertThat(done).as("round %d: every finish won, answered in the order given", round)
                        .extracting(d -> d.orElseThrow().id()).containsExactlyElementsOf(
                                descending.stream().map(ToolCall::id).toList());
            }
        } finally {
            heart.shutdownNow();
        }
    }

    @Test
    void reconciliationClaimsAnUnknownCallOnceWithItsOwnFence() {
        planned("k-1");
        ToolCall held = claims.claim("w-1", 1, EXPIRED).get(0);
        await().atMost(Duration.ofSeconds(10)).until(() -> claims.sweepExpiredLeases(10, Duration.ZERO), s -> !s.isEmpty());

        List<ToolCall> won = claims.claimForReconciliation("r-1", 10, LEASE);
        List<ToolCall> lost = claims().claimForReconciliation("r-2", 10, LEASE);

        assertThat(won).singleElement().satisfies(c -> {
            assertThat(c.state()).isEqualTo(CallState.RECONCILING);
            assertThat(c.fence()).isEqualTo(held.fence() + 2);
        });
        assertThat(lost).isEmpty();
        assertThat(calls.finish(won.get(0), CallState.RECONCILING, committed("ch_found"))).get()
                .extracting(ToolCall::state).isEqualTo(CallState.COMMITTED);
    }

    @Test
    void aRetryableCallIsClaimedAgainOnlyOnceItIsDueWithANewFenceAndAttempt() {
        planned("later");
        planned("now");
        for (ToolCall c : claims.claim("w-1", 2, LEASE)) {
            Duration wait = c.scope().idempotencyKey().equals("later") ? Duration.ofHours(1) : Duration.ZERO;
            calls.finish(c, CallState.STARTED, new Move.Retry(wait, "RETRYABLE", false, "slow down")).orElseThrow();
        }

        List<ToolCall> again = claims.claim("w-2", 10, LEASE);

        assertThat(again).singleElement().satisfies(c -> {
            assertThat(c.scope().idempotencyKey()).isEqualTo("now");
            assertThat(c.fence()).isEqualTo(2);
            assertThat(c.attempts()).isEqualTo(2);
        });
    }

    @Test
    void theHistoryKeepsNotesAndEvidenceSetsItsFact() {
        planned("k-1");
        ToolCall claimed = claims.claim("w-1", 1, LEASE).get(0);
        ToolCall unknown = calls.finish(claimed, CallState.STARTED, new Move.Reconcile(Duration.ZERO,
                "INDETERMINATE", true, "timeout")).orElseThrow();

        assertThat(unknown.facts().evidenceOfEffect()).isFalse();
        assertThat(unknown.facts().lookupFailures()).isEqualTo(1);
        calls.note(unknown, "operator looked");
        assertThat(calls.findById(unknown.id()).orElseThrow().facts().evidenceOfEffect()).as("a note is no evidence")
                .isFalse();
        calls.noteEvidence(unknown, "late Applied ch_9");

        ToolCall noted = calls.findById(unknown.id()).orElseThrow();
        assertThat(noted.facts().evidenceOfEffect()).isTrue();
        assertThat(noted.state()).as("evidence moves nothing").isEqualTo(CallState.UNKNOWN);
        assertThat(noted.fence()).isEqualTo(unknown.fence());
        assertThat(calls.sinceFirstAttempt(unknown)).isPresent();
    }

    @Test
    void theFactsOfACallAreWrittenWithItsMovesAndAClaimCountsTheLookupsAfresh() {
        planned("facts");
        ToolCall claimed = claims.claim("w-1", 1, LEASE).get(0);
        assertThat(claimed.kind()).isEqualTo(CallKind.ACTION);
        ToolCall possible = calls.finish(claimed, CallState.STARTED,
                new Move.Retry(Duration.ZERO, "RETRYABLE", true, "503")).orElseThrow();
        assertThat(possible.facts().effectPossible()).isTrue();
        ToolCall again = claims.claim("w-1", 1, LEASE).get(0);
        assertThat(again.facts().effectPossible()).as("kept by the claim, for the attempt's rules").isTrue();
        ToolCall unknown = calls.finish(again, CallState.STARTED,
                new Move.Reconcile(Duration.ZERO, "INDETERMINATE", false, "timeout")).orElseThrow();
        assertThat(unknown.facts().effectPossible()).as("replaced by the outcome").isFalse();
        assertThat(unknown.facts().lookupFailures()).isZero();
        ToolCall looked = claims.claimForReconciliation("r-1", 1, LEASE).get(0);
        ToolCall failedOnce = calls.finish(looked, CallState.RECONCILING,
                new Move.Reconcile(Duration.ZERO, "UNKNOWN_OUTCOME", true, "lookup timed out")).orElseThrow();
        ToolCall failedTwice = calls.finish(claims.claimForReconciliation("r-1", 1, LEASE).get(0), CallState.RECONCILING,
                new Move.Reconcile(Duration.ZERO, "UNKNOWN_OUTCOME", true, "lookup timed out")).orElseThrow();
        assertThat(failedOnce.facts().lookupFailures()).isEqualTo(1);
        assertThat(failedTwice.facts().lookupFailures()).isEqualTo(2);
        ToolCall absent = calls.finish(claims.claimForReconciliation("r-1", 1, LEASE).get(0), CallState.RECONCILING,
                new Move.Retry(Duration.ZERO, "CONFIRMED_ABSENT", false, "absent")).orElseThrow();
        assertThat(absent.facts().lookupFailures()).as("counted until the next attempt").isEqualTo(2);
        assertThat(claims.claim("w-1", 1, LEASE).get(0).facts().lookupFailures()).isZero();
    }

    @Test
    void aPurgeTakesOnlyTerminalCallsPastRetentionOnceAndItsTombstoneRefusesTheScope() {
        ToolCall done = planned("done");
        ToolCall open = planned("open");
        ToolCall claimed = claims.claim("w-1", 10, LEASE).stream().filter(c -> c.id() == done.id()).findFirst()
                .orElseThrow();
        calls.finish(claimed, CallState.STARTED, committed("ch_1")).orElseThrow();

        ToolCallRetention purge = new ToolCallRetention(new JdbcTemplate(ledger), schema());
        assertThat(purge.purgeTerminal(Duration.ofDays(1), 10)).as("not old enough").isZero();
        assertThat(purge.purgeTerminal(Duration.ZERO, 10)).isEqualTo(1);
        assertThat(new ToolCallRetention(new JdbcTemplate(ledger), schema()).purgeTerminal(Duration.ZERO, 10))
                .as("a second purge finds nothing").isZero();

        assertThat(calls.findById(done.id())).isEmpty();
        assertThat(calls.findById(open.id())).as("a call still running is never purged").isPresent();
        assertThat(calls.tombstone(done.scope())).get().asString().startsWith("COMMITTED ch_1 at ");
        assertThat(calls.insertPlanned(newCall("done", "m-late"))).as("the purged scope is refused").isEmpty();
    }
}
