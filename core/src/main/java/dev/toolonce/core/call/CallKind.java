package dev.toolonce.core.call;

/**
 * What a call is: the agent's own action, the compensation of another call (docs/protocol.md §17), or an action's
 * dry run (docs/adapters.md §5a). On the wire the kind is in the operation's name (the contract's {@code .compensate}
 * and {@code .dry-run} suffixes, which no configured operation may end in); this is the one place that reads it
 * there. The ledger stores the kind in a column of its own, and every decision reads that.
 */
public enum CallKind {
    /** An operation the tool's configuration declares. */
    ACTION,
    /** Undoes the effect of the call whose operation it names ({@link Compensation}). */
    COMPENSATION,
    /** Checks an action's arguments without an effect ({@link DryRun}). */
    DRY_RUN;

    /** The kind an operation's name denotes; never null. */
    public static CallKind of(String operation) {
        return Compensation.isCompensation(operation) ? COMPENSATION : DryRun.isDryRun(operation) ? DRY_RUN : ACTION;
    }
}
