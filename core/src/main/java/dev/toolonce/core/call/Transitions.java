package dev.toolonce.core.call;

import static dev.toolonce.core.call.CallState.*;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The one table of legal ledger transitions. Any pair not listed here throws. Which event makes each move is
 * {@link dev.toolonce.core.lifecycle.CallLifecycle}'s rule (or, for the claims and the lease sweep, the store's
 * declared statement); {@code CallLifecycleTest} checks that every pair here is made by one of them.
 */
public final class Transitions {
    private static final Map<CallState, Set<CallState>> LEGAL = new EnumMap<>(CallState.class);

    static {
        allow(PLANNED, STARTED);
        allow(STARTED, COMMITTED, FAILED_RETRYABLE, FAILED_FINAL, UNKNOWN, NEEDS_REVIEW);
        // COMMITTED: a late Applied from an attempt whose outcome had been counted as a confirmed absence.
        allow(FAILED_RETRYABLE, STARTED, FAILED_FINAL, COMMITTED);
        // A late Applied from a fenced-out attempt is evidence: it may commit an UNKNOWN call. (No move goes from
        // UNKNOWN to review: an UNKNOWN call has no effect recorded that a late Applied could contradict.)
        allow(UNKNOWN, RECONCILING, COMMITTED);
        // A reconciler whose lease expired hands the call back to UNKNOWN.
        allow(RECONCILING, COMMITTED, FAILED_RETRYABLE, NEEDS_REVIEW, UNKNOWN);
        // Compensation of a committed call, or a duplicate alarm sending it to review.
        allow(COMMITTED, COMPENSATING, NEEDS_REVIEW);
        allow(COMPENSATING, COMPENSATED, NEEDS_REVIEW);
        // Operator resolutions.
        allow(NEEDS_REVIEW, COMMITTED, FAILED_RETRYABLE, FAILED_FINAL, COMPENSATING);
        // Only the duplicate alarm (docs/protocol.md §11): a late Applied proves an effect on a call the agent was
        // told had failed; a human must reconcile the two. No automatic execution leaves FAILED_FINAL.
        allow(FAILED_FINAL, NEEDS_REVIEW);
        allow(COMPENSATED);
    }

    private Transitions() {
    }

    /**
     * Whether a call may come into existence in {@code state}: only {@code PLANNED}, the state intake plans a
     * call in (docs/protocol.md §4). A statement that inserts ledger rows declares this as its target.
     */
    public static boolean isInitial(CallState state) {
        return state == PLANNED;
    }

    /** Whether {@code from -> to} is legal. */
    public static boolean isLegal(CallState from, CallState to) {
        return LEGAL.get(from).contains(to);
    }

    /**
     * Checks a transition.
     *
     * @return {@code to}, for chaining
     * @throws IllegalTransitionException when the pair is not in the table
     */
    public static CallState check(CallState from, CallState to) {
        if (!isLegal(from, to)) {
            throw new IllegalTransitionException(from, to);
        }
        return to;
    }

    private static void allow(CallState from, CallState... to) {
        Set<CallState> targets = EnumSet.noneOf(CallState.class);
        targets.addAll(java.util.List.of(to));
        LEGAL.put(from, targets);
    }
}
