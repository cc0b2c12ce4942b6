package dev.toolonce.core.call;

/**
 * The name of an operation's dry run (docs/adapters.md §2, docs/agent-tasks.md §7a): a tool whose configuration
 * declares a dry run for {@code op} also offers the operation {@code op.dry-run} — a request that checks the
 * arguments exactly as {@code op} would and has no effect. It is an ordinary call with a scope of its own, so its
 * ledger row and provider key never meet the real call's. No configured operation may end in {@value #SUFFIX}:
 * the executor refuses such a name, so a user's operation can never be taken for a dry run.
 */
public final class DryRun {
    /** Appended to the operation to name its dry run. */
    public static final String SUFFIX = ".dry-run";

    private DryRun() {
    }

    /** Whether an operation name is a dry run's. */
    public static boolean isDryRun(String operation) {
        return operation != null && operation.endsWith(SUFFIX) && operation.length() > SUFFIX.length();
    }

    /**
     * @return the dry run's operation name of {@code operation}
     * @throws IllegalArgumentException when {@code operation} is itself a dry run or a compensation
     */
    public static String of(String operation) {
        if (isDryRun(operation) || Compensation.isCompensation(operation)) {
            throw new IllegalArgumentException("operation " + operation + " is a dry run or a compensation; it has no "
                    + "dry run");
        }
        return operation + SUFFIX;
    }
}
