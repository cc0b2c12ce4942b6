package dev.toolonce.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.call.CallKind;
import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.Compensation;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.call.Transitions;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import dev.toolonce.core.lifecycle.Verdict.Kind;
import dev.toolonce.core.lifecycle.Verdict.Refusal;
import dev.toolonce.core.outcome.LookupOutcome;
import dev.toolonce.core.outcome.ToolOutcome;
import dev.toolonce.core.retry.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every (state, event) pair of {@link CallLifecycle} against {@link Transitions}, without a database: each call as it
 * may be stored (in every state, with and without an external id, a duplicate alarm, the effect-possible flag, as an
 * original or a compensation, early or with its attempts used up) meets every kind of event in its variants; every
 * move answered is legal from the state it leaves, an event answers only in the states it can happen in, and every
 * legal transition of the table is reached by some event or by one of the store's set-based statements.
 */
class CallLifecycleTest {
    private static final int MAX_ATTEMPTS = 5;
    private static final CallScope ORIGINAL = new CallScope("acme", "payments", "charge", "k");
    private static final CallScope COMPENSATION = Compensation.of(ORIGINAL);
    private static final Duration SETTLE = Duration.ofSeconds(1);
    private static final Event.Tool SAFE = tool(true);
    private static final Event.Tool UNSAFE = tool(false);
    /** Moves written by the store's set-based statements (claims, sweep), declared in its SQL, not decided here. */
    private static final Set<String> BY_THE_STORES_STATEMENTS = Set.of("PLANNED->STARTED", "FAILED_RETRYABLE->STARTED",
            "STARTED->UNKNOWN", "RECONCILING->UNKNOWN", "UNKNOWN->RECONCILING");

    private final CallLifecycle lifecycle = new CallLifecycle(new RetryPolicy(Duration.ofMillis(200),
            Duration.ofSeconds(30), MAX_ATTEMPTS));

    private static Event.Tool tool(boolean retrySafe) {
        return new Event.Tool(Duration.ofHours(24), Duration.ofSeconds(12), SETTLE, retrySafe, d -> d, () -> 0.5);
    }

    private static ToolCall call(CallScope scope, CallState state, int attempts, String externalId, String errorCode,
                                 ToolCall.Facts facts) {
        return new ToolCall(7, scope, ProviderKey.of(scope), new RequestHash("sha256:" + "a".repeat(64)), "{}", state, 3,
                1, attempts, externalId, null, errorCode, null, null, null, "m1", null, null, facts);
    }

    private static ToolCall call(CallScope scope, CallState state, int attempts, String externalId, String errorCode) {
        return call(scope, state, attempts, externalId, errorCode, ToolCall.Facts.planned(scope.operation()));
    }

    private static ToolCall call(CallState state) {
        return call(ORIGINAL, state, 1, null, null);
    }

    private static ToolCall withFacts(CallState state, boolean effectPossible, int lookupFailures, boolean evidence) {
        return call(ORIGINAL, state, 1, null, null, new ToolCall.Facts(CallKind.ACTION, effectPossible, lookupFailures,
                evidence));
    }

    /** Every way a call may be stored, in every state. */
    private static List<ToolCall> everyCall() {
        List<ToolCall> calls = new ArrayList<>();
        for (CallState s : CallState.values()) {
            for (CallScope scope : List.of(ORIGINAL, COMPENSATION)) {
                for (int attempts : new int[] {0, 1, MAX_ATTEMPTS}) {
                    for (String id : new String[] {null, "ch_1"}) {
                        for (String code : new String[] {null, CallLifecycle.DUPLICATE_EFFECT, "TOOL_REJECTED"}) {
                            for (boolean effectPossible : new boolean[] {false, true}) {
                                for (int lookups : new int[] {0, MAX_ATTEMPTS - 1}) {
                                    for (boolean evidence : new boolean[] {false, true}) {
                                        calls.add(call(scope, s, attempts, id, code, new ToolCall.Facts(
                                                CallKind.of(scope.operation()), effectPossible, lookups, evidence)));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return calls;
    }

    /** Every kind of event, in the variants that take different branches. */
    private static List<Event> everyEvent() {
        List<Event> events = new ArrayList<>();
        List<ToolOutcome> outcomes = List.of(new ToolOutcome.Applied("ch_1", "{}"), new ToolOutcome.Applied(null, null),
                new ToolOutcome.Rejected("TOOL_REJECTED", "no"), ToolOutcome.Rejected.forReview("PROVIDER_KEY_REUSED", "no"),
                new ToolOutcome.Indeterminate("timeout"), ToolOutcome.Retryable.notApplied("429", Duration.ofSeconds(1)),
                ToolOutcome.Retryable.effectPossible("503", null));
        for (ToolOutcome o : outcomes) {
            events.add(new Event.AttemptEnded(o, SAFE, () -> Duration.ZERO));
            events.add(new Event.AttemptEnded(o, SAFE, () -> Duration.ofDays(2))); // outside the window
        }
        for (Event.Tool t : List.of(SAFE, UNSAFE)) {
            for (LookupOutcome l : List.of(new LookupOutcome.Found("ch_1", "{}"), new LookupOutcome.Absent(),
                    new LookupOutcome.Unavailable("timeout", null), new LookupOutcome.CannotTell("no lookup"))) {
                events.add(new Event.LookupAnswered(l, t));
            }
        }
        for (String id : new String[] {"ch_1", "ch_2", null}) {
            events.add(new Event.LateApplied(new ToolOutcome.Applied(id, null), 2));
        }
        for (Event.Action a : Event.Action.values()) {
            for (String id : new String[] {null, " ", "ch_9"}) {
                events.add(new Event.OperatorResolved(a, id, "alice", "checked by hand"));
            }
        }
        events.add(new Event.CompensationRequested());
        for (CallState s : CallState.values()) {
            events.add(new Event.CompensationEnded(s));
        }
        return events;
    }

    @Test
    void everyMoveOfEveryStateAndEventIsLegalAndEveryLegalMoveIsReached() {
        Set<String> reached = new HashSet<>(BY_THE_STORES_STATEMENTS);
        int pairs = 0;
        for (ToolCall c : everyCall()) {
            for (Event e : everyEvent()) {
                Verdict v = lifecycle.decide(c, e);
                CallState from = c.state();
                for (Move m : v.moves()) {
                    assertThat(Transitions.isLegal(from, m.to())).as(c.state() + " " + e + " -> " + v).isTrue();
                    reached.add(from + "->" + m.to());
                    from = m.to();
                }
                pairs++;
            }
        }
        Set<String> legal = new HashSet<>();
        for (CallState from : CallState.values()) {
            for (CallState to : CallState.values()) {
                if (Transitions.isLegal(from, to)) {
                    legal.add(from + "->" + to);
                }
            }
        }
        assertThat(pairs).isGreaterThan(10_000);
        assertThat(reached).as("the moves made are exactly the table's").containsExactlyInAnyOrderElementsOf(legal);
    }

    @Test
    void anEventAnswersOnlyInTheStatesItCanHappenIn() {
        for (ToolCall c : everyCall()) {
            for (Event e : everyEvent()) {
                Verdict v = lifecycle.decide(c, e);
                CallState only = e instanceof Event.AttemptEnded ? CallState.STARTED
                        : e instanceof Event.LookupAnswered ? CallState.RECONCILING
                        : e instanceof Event.OperatorResolved ? CallState.NEEDS_REVIEW
                        : e instanceof Event.CompensationEnded ? CallState.COMPENSATING : null;
                if (only != null && c.state() != only) {
                    assertThat(v.refusal()).as(c.state() + " " + e).isEqualTo(Refusal.NOT_IN_THIS_STATE);
                }
                if (v.kind() == Kind.REFUSED) {
                    assertThat(v.moves()).isEmpty();
                    assertThat(v.reason()).isNotBlank();
                }
            }
        }
    }

    @Test
    void aLateAppliedCommitsAnOpenCallAndAlarmsOnASecondEffect() {
        Event late = new Event.LateApplied(new ToolOutcome.Applied("ch_2", "{}"), 2);
        for (CallState s : EnumSet.of(CallState.STARTED, CallState.UNKNOWN, CallState.RECONCILING,
                CallState.FAILED_RETRYABLE, CallState.NEEDS_REVIEW)) {
            assertThat(lifecycle.decide(call(s), late).only()).as(s.name()).isEqualTo(new Move.Commit("ch_2", "{}"));
        }
        Verdict twice = lifecycle.decide(call(ORIGINAL, CallState.COMMITTED, 1, "ch_1", null), late);
        assertThat(twice.duplicateAlarm()).isTrue();
        assertThat(twice.only().errorCode()).isEqualTo(CallLifecycle.DUPLICATE_EFFECT);
        assertThat(twice.only().to()).isEqualTo(CallState.NEEDS_REVIEW);
        Verdict afterFailure = lifecycle.decide(call(ORIGINAL, CallState.FAILED_FINAL, 5, null, "RETRIES_EXHAUSTED"), late);
        assertThat(afterFailure.duplicateAlarm()).isTrue();
        assertThat(afterFailure.only().errorMessage()).contains("FAILED_FINAL (RETRIES_EXHAUSTED)");
        Verdict alarmedAgain = lifecycle.decide(call(ORIGINAL, CallState.NEEDS_REVIEW, 1, null,
                CallLifecycle.DUPLICATE_EFFECT), late);
        assertThat(alarmedAgain.kind()).as("no move out of an alarm").isEqualTo(Kind.NOTHING);
        assertThat(alarmedAgain.duplicateAlarm()).isTrue();
        Verdict same = lifecycle.decide(call(ORIGINAL, CallState.COMMITTED, 1, "ch_2", null), late);
        assertThat(same.kind()).isEqualTo(Kind.NOTHING);
        assertThat(same.duplicateAlarm()).as("the same effect reported twice is one effect").isFalse();
        Verdict noId = lifecycle.decide(call(ORIGINAL, CallState.COMMITTED, 1, "ch_1", null),
                new Event.LateApplied(new ToolOutcome.Applied(null, null), 2));
        assertThat(noId.duplicateAlarm()).as("an Applied without an id cannot be compared").isFalse();
    }

    @Test
    void aLookupCommitsRetriesOnlyWhereSafeAndBoundsItsOwnFailures() {
        ToolCall reconciling = call(CallState.RECONCILING);
        assertThat(lifecycle.decide(reconciling, new Event.LookupAnswered(new LookupOutcome.Found("ch_1", "{}"), SAFE))
                .only()).isEqualTo(new Move.Commit("ch_1", "{}"));
        Move absent = lifecycle.decide(reconciling, new Event.LookupAnswered(new LookupOutcome.Absent(), SAFE)).only();
        assertThat(absent.to()).isEqualTo(CallState.FAILED_RETRYABLE);
        assertThat(absent.dueIn()).isEqualTo(Duration.ZERO);
        assertThat(lifecycle.decide(reconciling, new Event.LookupAnswered(new LookupOutcome.Absent(), UNSAFE))
                .only().errorCode()).isEqualTo("UNSAFE_TO_RETRY");
        List<Move> exhausted = lifecycle.decide(call(ORIGINAL, CallState.RECONCILING, MAX_ATTEMPTS, null, null),
                new Event.LookupAnswered(new LookupOutcome.Absent(), SAFE)).moves();
        assertThat(exhausted).extracting(Move::to).containsExactly(CallState.FAILED_RETRYABLE, CallState.FAILED_FINAL);
        assertThat(exhausted.get(1).errorCode()).isEqualTo(CallLifecycle.RETRIES_EXHAUSTED);

        Move again = lifecycle.decide(withFacts(CallState.RECONCILING, false, 1, false), new Event.LookupAnswered(
                new LookupOutcome.Unavailable("timeout", Duration.ofSeconds(4)), SAFE)).only();
        assertThat(again.to()).isEqualTo(CallState.UNKNOWN);
        assertThat(again.lookupFailed()).isTrue();
        assertThat(again.dueIn()).as("Retry-After, then the settle delay").isEqualTo(Duration.ofSeconds(5));
        Move givenUp = lifecycle.decide(withFacts(CallState.RECONCILING, false, MAX_ATTEMPTS - 1, false),
                new Event.LookupAnswered(
                new LookupOutcome.Unavailable("timeout", null), SAFE)).only();
        assertThat(givenUp.to()).isEqualTo(CallState.NEEDS_REVIEW);
        assertThat(givenUp.errorMessage()).contains("failed 5 times in a row");
        assertThat(lifecycle.decide(withFacts(CallState.RECONCILING, false, MAX_ATTEMPTS - 2, false),
                new Event.LookupAnswered(new LookupOutcome.Unavailable("timeout", null), SAFE)).only().to())
                .as("the last lookup allowed").isEqualTo(CallState.UNKNOWN);
        assertThat(lifecycle.decide(reconciling, new Event.LookupAnswered(new LookupOutcome.CannotTell("?"), SAFE))
                .only().errorCode()).isEqualTo("OUTCOME_UNKNOWN");
    }

    @Test
    void anOperatorNeverResendsAnEffectThatMayExist() {
        Event retry = new Event.OperatorResolved(Event.Action.RETRY, null, "alice", null);
        assertThat(lifecycle.decide(call(CallState.NEEDS_REVIEW), retry).only())
                .isEqualTo(new Move.Retry(Duration.ZERO, "OPERATOR", false, "resolved by alice"));
        assertThat(lifecycle.decide(call(ORIGINAL, CallState.NEEDS_REVIEW, 1, "ch_1", null), retry).refusal())
                .isEqualTo(Refusal.EFFECT_MAY_EXIST);
        assertThat(lifecycle.decide(call(ORIGINAL, CallState.NEEDS_REVIEW, 1, null, CallLifecycle.DUPLICATE_EFFECT), retry)
                .refusal()).isEqualTo(Refusal.EFFECT_MAY_EXIST);
        assertThat(lifecycle.decide(withFacts(CallState.NEEDS_REVIEW, false, 0, true), retry).reason())
                .contains("evidence");
        assertThat(lifecycle.decide(call(CallState.NEEDS_REVIEW),
                new Event.OperatorResolved(Event.Action.COMMIT, " ", "alice", null)).refusal())
                .isEqualTo(Refusal.BAD_REQUEST);
        assertThat(lifecycle.decide(call(CallState.NEEDS_REVIEW),
                new Event.OperatorResolved(Event.Action.COMPENSATE, null, "alice", null)).refusal())
                .as("nothing named to undo").isEqualTo(Refusal.BAD_REQUEST);
        assertThat(lifecycle.decide(call(COMPENSATION, CallState.NEEDS_REVIEW, 1, "re_1", null),
                new Event.OperatorResolved(Event.Action.COMPENSATE, "re_1", "alice", null)).refusal())
                .as("a compensation is not compensated").isEqualTo(Refusal.BAD_REQUEST);
        Move undo = lifecycle.decide(call(CallState.NEEDS_REVIEW),
                new Event.OperatorResolved(Event.Action.COMPENSATE, "ch_9", "alice", "found it")).only();
        assertThat(undo).isEqualTo(new Move.Compensate("ch_9", "OPERATOR", "resolved by alice: found it"));
        assertThat(lifecycle.decide(call(CallState.COMMITTED),
                new Event.OperatorResolved(Event.Action.FAIL, null, "alice", null)).reason())
                .contains("not NEEDS_REVIEW");
    }

    @Test
    void aCompensationWaitsForItsOriginalAndItsOutcomeSettlesIt() {
        Event requested = new Event.CompensationRequested();
        for (CallState s : EnumSet.of(CallState.PLANNED, CallState.STARTED, CallState.FAILED_RETRYABLE,
                CallState.UNKNOWN, CallState.RECONCILING, CallState.NEEDS_REVIEW)) {
            assertThat(lifecycle.decide(call(s), requested).kind()).as(s.name()).isEqualTo(Kind.WAIT);
        }
        assertThat(lifecycle.decide(call(ORIGINAL, CallState.COMMITTED, 1, "ch_1", null), requested).only().to())
                .isEqualTo(CallState.COMPENSATING);
        for (CallState s : EnumSet.of(CallState.COMMITTED, CallState.FAILED_FINAL, CallState.COMPENSATING,
                CallState.COMPENSATED)) {
            assertThat(lifecycle.decide(call(s), requested).kind()).as(s + " without an id: released, nothing moved")
                    .isEqualTo(Kind.NOTHING);
        }
        ToolCall compensating = call(ORIGINAL, CallState.COMPENSATING, 1, "ch_1", null);
        assertThat(lifecycle.decide(compensating, new Event.CompensationEnded(CallState.COMMITTED)).only())
                .isEqualTo(new Move.Compensated());
        Move failed = lifecycle.decide(compensating, new Event.CompensationEnded(CallState.FAILED_FINAL)).only();
        assertThat(failed.errorCode()).isEqualTo(CallLifecycle.COMPENSATION_FAILED);
        assertThat(failed.errorMessage()).contains("charge.compensate");
        assertThat(lifecycle.decide(compensating, new Event.CompensationEnded(CallState.NEEDS_REVIEW)).kind())
                .isEqualTo(Kind.NOTHING);
    }
}
