package dev.toolonce.agent.task;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The tool operations that declare a dry run (docs/agent-tasks.md §7a): the agent's copy of what the executor's tool
 * configuration says ({@code toolonce.executor.tools.<tool>.operations.<op>.dry-run}), set in the agent as
 * {@code toolonce.agent.dry-runs: [tool/operation, …]}. A plan that asks for a dry run of anything else is refused
 * at submission. The executor stays the authority: a dry run it does not know is answered {@code REJECTED
 * UNKNOWN_TOOL}, which fails the task before the step's effect.
 *
 * @param declared {@code tool/operation} entries
 */
public record DryRunCatalog(Set<String> declared) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    /** No tool declares a dry run. */
    public static final DryRunCatalog NONE = new DryRunCatalog(Set.of());

    /** @throws IllegalArgumentException naming an entry that is not {@code tool/operation} */
    public DryRunCatalog {
        for (String entry : declared) {
            String[] parts = entry == null ? new String[0] : entry.split("/", -1);
            if (parts.length != 2 || !NAME.matcher(parts[0]).matches() || !NAME.matcher(parts[1]).matches()) {
                throw new IllegalArgumentException("a dry run is declared as tool/operation (e.g. payments/charge), "
                        + "was " + entry);
            }
        }
        declared = Set.copyOf(declared);
    }

    /** The catalog of these {@code tool/operation} entries. */
    public static DryRunCatalog of(Collection<String> toolOperations) {
        return new DryRunCatalog(new HashSet<>(toolOperations));
    }

    /** Whether {@code tool} declares a dry run of {@code operation}. */
    public boolean declares(String tool, String operation) {
        return declared.contains(tool + "/" + operation);
    }
}
