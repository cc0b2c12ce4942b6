package dev.toolonce.core.lifecycle;

import java.util.List;
import java.util.Objects;

/**
 * What {@link CallLifecycle} answers for an event: the moves to write, in order, each guarded on the state the one
 * before it left (usually one); or that nothing is written; or that the call must wait; or a refusal. Immutable.
 *
 * @param kind           never null
 * @param moves          the writes, in order; empty unless {@code kind} is {@link Kind#MOVE}
 * @param refusal        why the event was refused; null unless {@code kind} is {@link Kind#REFUSED}
 * @param duplicateAlarm the event proves a second effect of the call (docs/protocol.md §11): alarm, whatever is
 *                       written
 * @param reason         for the log and for a refusal's message; never null
 */
public record Verdict(Kind kind, List<Move> moves, Refusal refusal, boolean duplicateAlarm, String reason) {
    /** The shape of an answer. */
    public enum Kind {
        /** Write {@link #moves()}. */
        MOVE,
        /** Nothing to write; whoever asked goes on (e.g. a compensation is released without moving its original). */
        NOTHING,
        /** Nothing to write yet: ask again later (e.g. a compensation waits while its original may still change). */
        WAIT,
        /** The event does not apply: nothing is written, and the caller is told why. */
        REFUSED
    }

    /** Why an event was refused. */
    public enum Refusal {
        /** The event cannot happen to a call in this state (e.g. a resolution of a call not in review). */
        NOT_IN_THIS_STATE,
        /** The request is incomplete or names something that cannot be done (e.g. commit without an id). */
        BAD_REQUEST,
        /** A resend could apply the effect twice: the effect is known, or may exist. */
        EFFECT_MAY_EXIST
    }

    public Verdict {
        Objects.requireNonNull(kind, "kind");
        moves = List.copyOf(moves);
        Objects.requireNonNull(reason, "reason");
        if ((kind == Kind.MOVE) == moves.isEmpty() || (kind == Kind.REFUSED) == (refusal == null)) {
            throw new IllegalArgumentException("inconsistent verdict " + kind + " " + moves + " " + refusal);
        }
    }

    static Verdict move(String reason, Move... moves) {
        return new Verdict(Kind.MOVE, List.of(moves), null, false, reason);
    }

    static Verdict alarm(String reason, Move move) {
        return new Verdict(Kind.MOVE, List.of(move), null, true, reason);
    }

    static Verdict alarmOnly(String reason) {
        return new Verdict(Kind.NOTHING, List.of(), null, true, reason);
    }

    static Verdict nothing(String reason) {
        return new Verdict(Kind.NOTHING, List.of(), null, false, reason);
    }

    static Verdict waitFor(String reason) {
        return new Verdict(Kind.WAIT, List.of(), null, false, reason);
    }

    static Verdict refused(Refusal refusal, String reason) {
        return new Verdict(Kind.REFUSED, List.of(), refusal, false, reason);
    }

    /** The one move of a verdict that has exactly one. */
    public Move only() {
        if (moves.size() != 1) {
            throw new IllegalStateException("verdict has " + moves.size() + " moves: " + this);
        }
        return moves.get(0);
    }
}
