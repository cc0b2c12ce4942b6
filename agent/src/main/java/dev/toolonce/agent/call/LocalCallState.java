package dev.toolonce.agent.call;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The states of an application's own tool call ({@link LocalCalls}, docs/agent-calls.md §8) and the one table of the
 * moves between them; {@link LocalCallStore} guards every update with it.
 *
 * <pre>
 *   RUNNING ──answer──▶ DONE
 *      │    ──throws──▶ FAILED
 *      └─claim's session gone─▶ NEEDS_REVIEW ──late answer, or a person──▶ DONE | FAILED
 * </pre>
 */
public enum LocalCallState {
    /** Claimed and committed; the method runs (or its runner died: then its lock is free). */
    RUNNING,
    /** The method answered; asked again, the call answers this. */
    DONE,
    /** The method threw; it may have had its effect, so the key never runs it again. */
    FAILED,
    /** Claimed by a session that ended before the answer was written: a person decides. */
    NEEDS_REVIEW;

    /** The states this one may move to. */
    public Set<LocalCallState> next() {
        return switch (this) {
            case RUNNING -> EnumSet.of(DONE, FAILED, NEEDS_REVIEW);
            case NEEDS_REVIEW -> EnumSet.of(DONE, FAILED);
            case DONE, FAILED -> EnumSet.noneOf(LocalCallState.class);
        };
    }

    /** Whether a call in this state may move to {@code to}. */
    public boolean canMoveTo(LocalCallState to) {
        return next().contains(to);
    }

    /** The states a call may move to {@code to} from: the guard of the update that moves it. */
    public static List<LocalCallState> from(LocalCallState to) {
        return Arrays.stream(values()).filter(s -> s.canMoveTo(to)).toList();
    }
}
