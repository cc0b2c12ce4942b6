package dev.toolonce.core.lifecycle;

import static dev.toolonce.core.call.CallState.COMMITTED;
import static dev.toolonce.core.call.CallState.COMPENSATING;
import static dev.toolonce.core.call.CallState.FAILED_FINAL;
import static dev.toolonce.core.call.CallState.NEEDS_REVIEW;
import static dev.toolonce.core.call.CallState.RECONCILING;
import static dev.toolonce.core.call.CallState.STARTED;

import dev.toolonce.core.call.CallKind;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.Compensation;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.call.Transitions;
import dev.toolonce.core.lifecycle.Verdict.Refusal;
import dev.toolonce.core.outcome.LookupOutcome;
import dev.toolonce.core.outcome.ToolOutcome;
import dev.toolonce.core.retry.RetryPolicy;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The life of a call after intake, in one place and without I/O: from the call as stored and an {@link Event}, the
 * {@link Verdict} — the typed {@link Move}s to write, nothing, wait, or a refusal. The executor's completion,
 * reconciliation, compensation and review are shells that load the call, ask here, and hand the moves to the ledger
 * store, which writes each as a guarded update ({@code (id, state, fence)}); every move it returns is legal in
 * {@link Transitions} from the state it leaves, which {@code CallLifecycleTest} checks for every (state, event).
 *
 * <p>The rules (docs/protocol.md §9–§12, §16, §17):
 * <ul>
 *   <li><b>An attempt ends</b> ({@code STARTED} only): {@code Applied} commits; {@code Rejected} fails for good, or
 *       goes to review for a reused key; {@code Indeterminate} goes to {@code UNKNOWN}, looked up after the tool's
 *       settle delay. A {@code Retryable} is retried with backoff. If this or an earlier failure since the last
 *       confirmed absence may have applied (a 5xx under native idempotency; the ledger's {@code effect_possible}
 *       column says so, {@link ToolCall.Facts#effectPossible}), the call never fails without evidence: when the
 *       attempts are used up, or when the resend would reach the provider after its idempotency window (time since
 *       the first attempt + the next wait + one attempt's total timeout &gt; window), it goes to {@code UNKNOWN} and
 *       is looked up first. Attempts used up on failures all confirmed not applied: {@code FAILED_FINAL}
 *       {@value #RETRIES_EXHAUSTED}.</li>
 *   <li><b>A lookup answers</b> ({@code RECONCILING} only): found commits; confirmed absent makes it due again now,
 *       only where a resend cannot duplicate the effect (else review {@code UNSAFE_TO_RETRY}), and fails it
 *       {@value #RETRIES_EXHAUSTED} when the attempts are used up; unavailable asks again after a backoff plus the
 *       settle delay, at most as many lookups in a row as attempts before review; cannot tell goes to review.</li>
 *   <li><b>A late Applied</b> (any state) is evidence: it commits a call that is not final, unless a duplicate alarm
 *       put it in review or it names another effect than the one committed; on a call committed with another id, or
 *       one the agent was told {@code FAILED_FINAL}, it raises the duplicate alarm ({@value #DUPLICATE_EFFECT}).</li>
 *   <li><b>An operator</b> resolves a call in review only: commit needs the effect's id; a retry is refused while an
 *       effect is known or may exist (an external id, a duplicate alarm, evidence); compensate needs an id to undo
 *       and is never of a compensation.</li>
 *   <li><b>A compensation</b> waits while its original may still change; an original committed with an id moves to
 *       {@code COMPENSATING}; any other original lets the compensation go on (the gateway then refuses it
 *       {@code NOT_COMPENSABLE}, so the agent gets an answer). The compensation's outcome settles the original:
 *       {@code COMPENSATED}, or review {@value #COMPENSATION_FAILED} when it failed finally.</li>
 * </ul>
 * Thread-safe (immutable).
 */
public final class CallLifecycle {
    /** Error code kept on a {@code FAILED_RETRYABLE} call while an earlier attempt's effect may exist. */
    public static final String EFFECT_POSSIBLE = "EFFECT_POSSIBLE";
    /** Error code of a lookup that failed in a way that may pass. */
    public static final String LOOKUP_UNAVAILABLE = "LOOKUP_UNAVAILABLE";
    /** Error code of the duplicate alarm. */
    public static final String DUPLICATE_EFFECT = "DUPLICATE_EFFECT";
    /** Error code of an original whose compensation failed finally. */
    public static final String COMPENSATION_FAILED = "COMPENSATION_FAILED";
    /** Error code of a call that used up its attempts without an effect. */
    public static final String RETRIES_EXHAUSTED = "RETRIES_EXHAUSTED";

    /** States in which a late Applied commits the call (unless alarmed or naming another effect). */
    private static final Set<CallState> OPEN = EnumSet.of(STARTED, CallState.UNKNOWN, RECONCILING,
            CallState.FAILED_RETRYABLE, NEEDS_REVIEW);
    /** Originals whose outcome may still change: their compensation waits. */
    private static final Set<CallState> MAY_CHANGE = EnumSet.of(CallState.PLANNED, STARTED, CallState.FAILED_RETRYABLE,
            CallState.UNKNOWN, RECONCILING, NEEDS_REVIEW);

    private final RetryPolicy retry;

    /** @param retry backoff and attempts, of attempts and of lookups alike */
    public CallLifecycle(RetryPolicy retry) {
        this.retry = Objects.requireNonNull(retry);
    }

    /**
     * @param call  the call as stored (for an attempt, as claimed)
     * @param event what happened to it
     * @return never null; every move in it is legal from the state the one before it leaves
     */
    public Verdict decide(ToolCall call, Event event) {
        // Java 17 has no pattern switch; the events are few and sealed.
        if (event instanceof Event.AttemptEnded a) {
            return call.state() != STARTED ? notIn(call, "an attempt ends only for a STARTED call")
                    : attemptEnded(call, a);
        }
        if (event instanceof Event.LookupAnswered l) {
            return call.state() != RECONCILING ? notIn(call, "a lookup answers only for a RECONCILING call")
                    : lookupAnswered(call, l);
        }
        if (event instanceof Event.LateApplied l) {
            return lateApplied(call, l);
        }
        if (event instanceof Event.OperatorResolved o) {
            return call.state() != NEEDS_REVIEW ? notIn(call, "call " + call.scope() + " is " + call.state()
                    + ", not NEEDS_REVIEW") : operatorResolved(call, o);
        }
        Event.CompensationEnded ended = event instanceof Event.CompensationEnded c ? c : null;
        if (ended != null && call.state() != COMPENSATING) {
            return notIn(call, "only a COMPENSATING call is settled by its compensation");
        }
        if (call.kind() == CallKind.COMPENSATION) { // both compensation events are of an original
            return Verdict.refused(Refusal.BAD_REQUEST, call.scope() + " is a compensation; a compensation is not "
                    + "compensated");
        }
        return ended == null ? compensationRequested(call) : compensationEnded(call, ended);
    }

    private Verdict attemptEnded(ToolCall call, Event.AttemptEnded a) {
        ToolOutcome outcome = a.outcome();
        if (outcome instanceof ToolOutcome.Applied ap) {
            return Verdict.move("applied", new Move.Commit(ap.externalObjectId(), ap.resultJson()));
        }
        if (outcome instanceof ToolOutcome.Rejected r) {
            return Verdict.move("rejected", r.needsReview() ? new Move.Review("REJECTED", r.code(), r.message())
                    : new Move.FailFinal("REJECTED", r.code(), r.message()));
        }
        if (outcome instanceof ToolOutcome.Indeterminate i) {
            return Verdict.move("indeterminate", toLookUp(i.reason(), a.tool()));
        }
        return retryable(call, (ToolOutcome.Retryable) outcome, a);
    }

    private Verdict retryable(ToolCall call, ToolOutcome.Retryable r, Event.AttemptEnded a) {
        boolean effectPossible = r.effectPossible() || call.facts().effectPossible();
        if (!retry.allowsAnother(call.attempts())) {
            return effectPossible
                    ? Verdict.move("attempts used up", toLookUp("attempts used up, but an attempt may have applied ("
                            + r.reason() + "): reconciling before failing", a.tool()))
                    : Verdict.move("attempts used up", new Move.FailFinal("RETRYABLE", RETRIES_EXHAUSTED,
                            "gave up after " + call.attempts() + " attempts; last: " + r.reason()));
        }
        Duration backoff = retry.delay(call.attempts(), r.retryAfter(), a.tool().jitter());
        Duration wait = a.tool().reserve().apply(backoff);
        Duration window = a.tool().idempotencyWindow();
        if (effectPossible && window != null) {
            Duration reach = a.sinceFirstAttempt().get().plus(wait).plus(a.tool().totalTimeout());
            if (reach.compareTo(window) > 0) {
                return Verdict.move("outside the idempotency window", toLookUp("a resend after " + wait
                        + " could reach the tool " + reach + " after the first attempt, outside its idempotency window "
                        + window + " (" + r.reason() + "): reconciling instead", a.tool()));
            }
        }
        return Verdict.move("retryable", new Move.Retry(wait, "RETRYABLE", effectPossible, r.reason()));
    }

    private static Move toLookUp(String reason, Event.Tool tool) {
        return new Move.Reconcile(tool.settleDelay(), "INDETERMINATE", false, reason);
    }

    private Verdict lookupAnswered(ToolCall call, Event.LookupAnswered l) {
        LookupOutcome answer = l.answer();
        if (answer instanceof LookupOutcome.Found f) {
            return Verdict.move("found", new Move.Commit(f.externalObjectId(), f.resultJson()));
        }
        if (answer instanceof LookupOutcome.Absent) {
            if (!l.tool().retrySafe()) {
                return Verdict.move("absent, unsafe to resend", new Move.Review("UNKNOWN_OUTCOME", "UNSAFE_TO_RETRY",
                        "the tool reports no effect but has neither native idempotency nor a unique reference"));
            }
            if (!retry.allowsAnother(call.attempts())) {
                // RECONCILING cannot fail directly: the absence is recorded first, then the end of the attempts.
                return Verdict.move("absent, attempts used up", confirmedAbsent(Duration.ZERO),
                        new Move.FailFinal("CONFIRMED_ABSENT", RETRIES_EXHAUSTED,
                                "the effect is confirmed absent and the attempts are used up"));
            }
            return Verdict.move("absent", confirmedAbsent(l.tool().reserve().apply(Duration.ZERO)));
        }
        if (answer instanceof LookupOutcome.Unavailable u) {
            int failures = call.facts().lookupFailures() + 1;
            if (!retry.allowsAnother(failures)) {
                return Verdict.move("lookups used up", new Move.Review("UNKNOWN_OUTCOME", "OUTCOME_UNKNOWN",
                        "the lookup failed " + failures + " times in a row; last: " + u.reason()));
            }
            Duration wait = retry.delay(failures, u.retryAfter(), l.tool().jitter()).plus(l.tool().settleDelay());
            return Verdict.move("lookup unavailable", new Move.Reconcile(wait, "UNKNOWN_OUTCOME", true,
                    "lookup " + failures + " failed (" + u.reason() + "); asking again in " + wait));
        }
        LookupOutcome.CannotTell c = (LookupOutcome.CannotTell) answer;
        return Verdict.move("cannot tell", new Move.Review("UNKNOWN_OUTCOME", "OUTCOME_UNKNOWN", c.reason()));
    }

    private static Move confirmedAbsent(Duration dueIn) {
        return new Move.Retry(dueIn, "CONFIRMED_ABSENT", false, "confirmed absent after an unknown outcome");
    }

    private static Verdict lateApplied(ToolCall call, Event.LateApplied l) {
        String id = l.applied().externalObjectId();
        boolean alarmed = DUPLICATE_EFFECT.equals(call.errorCode());
        // Two different ids are two effects; a late Applied without an id cannot be compared: noted, not alarmed.
        boolean committedElsewhere = call.externalObjectId() != null && id != null
                && !Objects.equals(call.externalObjectId(), id);
        if (OPEN.contains(call.state()) && !alarmed && !committedElsewhere) {
            return Verdict.move("committed by the evidence of a late Applied",
                    new Move.Commit(id, l.applied().resultJson()));
        }
        if ((call.state() == COMMITTED && committedElsewhere) || call.state() == FAILED_FINAL) {
            String why = l.evidence() + (call.state() == COMMITTED ? " while committed as " + call.externalObjectId()
                    : " after the call was reported FAILED_FINAL (" + call.errorCode() + ")");
            return Verdict.alarm(why, new Move.Review("DUPLICATE", DUPLICATE_EFFECT, why));
        }
        if (call.state() == NEEDS_REVIEW) {
            return Verdict.alarmOnly(l.evidence() + " on a call already in review (" + call.errorCode() + ")");
        }
        return Verdict.nothing(l.evidence() + " on a " + call.state() + " call: noted");
    }

    private static Verdict operatorResolved(ToolCall call, Event.OperatorResolved o) {
        boolean hasId = o.externalId() != null && !o.externalId().isBlank();
        String why = "resolved by " + o.operator() + (o.note() == null || o.note().isBlank() ? "" : ": " + o.note());
        switch (o.action()) {
            case COMMIT:
                return hasId ? Verdict.move(why, new Move.Commit(o.externalId(), null))
                        : Verdict.refused(Refusal.BAD_REQUEST,
                                "commit needs the external id of the effect the operator found");
            case RETRY:
                String effect = call.externalObjectId() != null
                        ? "it has an external id (" + call.externalObjectId() + ")"
                        : DUPLICATE_EFFECT.equals(call.errorCode()) ? "it carries a duplicate alarm"
                        : call.facts().evidenceOfEffect()
                        ? "a fenced-out attempt reported the effect applied (evidence in its attempt history)"
                        : null;
                return effect == null ? Verdict.move(why, new Move.Retry(Duration.ZERO, "OPERATOR", false, why))
                        : Verdict.refused(Refusal.EFFECT_MAY_EXIST, "retry of " + call.scope() + " refused: " + effect
                                + "; resolve it with commit (the effect exists) or fail");
            case FAIL:
                return Verdict.move(why, new Move.FailFinal("OPERATOR", "OPERATOR_FAILED", why));
            default:
                if (call.kind() == CallKind.COMPENSATION) {
                    return Verdict.refused(Refusal.BAD_REQUEST,
                            call.scope() + " is a compensation; commit, retry or fail it");
                }
                if (call.externalObjectId() == null && !hasId) {
                    return Verdict.refused(Refusal.BAD_REQUEST, "compensate needs the external id of the effect to "
                            + "undo: " + call.scope() + " has none recorded");
                }
                try {
                    Compensation.of(call.scope());
                } catch (IllegalArgumentException e) { // the derived operation name would be too long
                    return Verdict.refused(Refusal.BAD_REQUEST, e.getMessage());
                }
                return Verdict.move(why, new Move.Compensate(hasId ? o.externalId() : null, "OPERATOR", why));
        }
    }

    private static Verdict compensationRequested(ToolCall original) {
        if (MAY_CHANGE.contains(original.state())) {
            return Verdict.waitFor("the original is " + original.state() + " and may still change");
        }
        if (original.state() == COMMITTED && original.externalObjectId() != null) {
            return Verdict.move("compensating " + original.externalObjectId(), new Move.Compensate(null, null, null));
        }
        return Verdict.nothing("the original is " + original.state()
                + (original.state() == COMMITTED ? " without an external id" : "") + ": nothing to undo by id");
    }

    private static Verdict compensationEnded(ToolCall original, Event.CompensationEnded c) {
        if (c.compensationState() == COMMITTED) {
            return Verdict.move("compensated", new Move.Compensated());
        }
        if (c.compensationState() == FAILED_FINAL) {
            String why = "the compensation " + Compensation.of(original.scope())
                    + " failed finally; the effect still stands";
            return Verdict.move(why, new Move.Review("COMPENSATION", COMPENSATION_FAILED, why));
        }
        return Verdict.nothing("the compensation is " + c.compensationState() + ": no outcome yet");
    }

    private static Verdict notIn(ToolCall call, String why) {
        return Verdict.refused(Refusal.NOT_IN_THIS_STATE, why + " (call " + call.id() + " is " + call.state() + ")");
    }
}
