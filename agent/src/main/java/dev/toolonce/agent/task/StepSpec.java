package dev.toolonce.agent.task;

import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * One planned step of a task: a tool call, and what the saga may do with it.
 *
 * <p>Arguments are a JSON object: a {@code tools.jackson.databind.JsonNode} (Jackson 3, which this library uses), or —
 * so that an application need not know which Jackson that is — a {@code Map<String, ?>} or a record, converted with
 * {@link #of(String, String, String, Object)}.
 *
 * @param stepId        unique within the task; not ending in {@code .compensate} (that names its compensation)
 * @param tool          the tool, as configured in the executor
 * @param operation     the tool's operation
 * @param arguments     a JSON object, sent to the tool
 * @param compensable   on a later final failure, undo this step with the tool's compensation
 *                      ({@code <operation>.compensate}, docs/protocol.md §17)
 * @param irreversible  cannot be undone (an email): must come after every compensable step
 * @param needsApproval the task waits before this step until an operator approves these exact arguments
 * @param dryRun        before this step, its tool's dry run ({@code <operation>.dry-run}) checks these exact
 *                      arguments; a failed dry run fails the step before any effect. The tool must declare one
 *                      ({@link DryRunCatalog})
 */
public record StepSpec(String stepId, String tool, String operation, JsonNode arguments, boolean compensable,
                       boolean irreversible, boolean needsApproval, boolean dryRun) {

    public StepSpec {
        Objects.requireNonNull(stepId, "stepId");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(operation, "operation");
        if (arguments == null || !arguments.isObject()) {
            throw new IllegalArgumentException("step " + stepId + ": arguments must be a JSON object");
        }
    }

    /** Converts maps and records to JSON; one instance, as Jackson's mappers are thread-safe once built. */
    private static final ObjectMapper ARGUMENTS = JsonMapper.builder().build();

    /** A plain step: not compensated, not irreversible, no approval, no dry run. */
    public static StepSpec of(String stepId, String tool, String operation, JsonNode arguments) {
        return new StepSpec(stepId, tool, operation, arguments, false, false, false, false);
    }

    /**
     * A plain step whose arguments are a {@code Map<String, ?>}, a record or any other value Jackson writes as a JSON
     * object, e.g. {@code StepSpec.of("charge", "payments", "charge", Map.of("amount", 1000, "currency", "EUR"))}.
     *
     * @throws IllegalArgumentException if the value is not written as a JSON object, or is a Jackson 2 node
     *                                  ({@code com.fasterxml.jackson}), which this library cannot read: use a map,
     *                                  a record or a {@code tools.jackson} node instead
     */
    public static StepSpec of(String stepId, String tool, String operation, Object arguments) {
        if (arguments != null && arguments.getClass().getName().startsWith("com.fasterxml.jackson.")) {
            throw new IllegalArgumentException("step " + stepId + ": arguments are a Jackson 2 value ("
                    + arguments.getClass().getName() + "); pass a Map, a record or a tools.jackson.databind.JsonNode");
        }
        return of(stepId, tool, operation, arguments == null ? null : ARGUMENTS.<JsonNode>valueToTree(arguments));
    }

    /** This step, undone by its compensation if a later step fails finally. */
    public StepSpec withCompensation() {
        return new StepSpec(stepId, tool, operation, arguments, true, irreversible, needsApproval, dryRun);
    }

    /** This step, flagged as impossible to undo. */
    public StepSpec asIrreversible() {
        return new StepSpec(stepId, tool, operation, arguments, compensable, true, needsApproval, dryRun);
    }

    /** This step, held until an operator approves it. */
    public StepSpec withApproval() {
        return new StepSpec(stepId, tool, operation, arguments, compensable, irreversible, true, dryRun);
    }

    /** This step, checked first by its tool's dry run; an approval, if any, comes after the dry run passed. */
    public StepSpec withDryRun() {
        return new StepSpec(stepId, tool, operation, arguments, compensable, irreversible, needsApproval, true);
    }
}
