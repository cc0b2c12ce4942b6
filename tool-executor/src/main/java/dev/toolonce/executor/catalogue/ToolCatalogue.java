package dev.toolonce.executor.catalogue;

import dev.toolonce.core.adapter.Capability;
import dev.toolonce.core.adapter.ToolDescriptor;
import dev.toolonce.core.call.DryRun;
import dev.toolonce.executor.adapter.ToolConfigException;
import dev.toolonce.executor.config.ToolProperties;
import dev.toolonce.schemas.ArgumentsSchema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * The tools as agents see them (docs/adapters.md §8): every configured operation with its description, the JSON
 * Schema of its arguments, its tool's capabilities and the guarantee ToolOnce gives its calls. Built once at start-up
 * from the tool YAML; a schema that cannot be used stops the start-up naming the tool and the field. Immutable.
 */
public final class ToolCatalogue {

    /** What ToolOnce promises a call of an operation, derived from its tool's capabilities, never from its name. */
    public enum Guarantee {
        /**
         * One effect: an unknown outcome is looked up and, when confirmed absent, sent again, which the tool itself
         * makes safe ({@code NATIVE_IDEMPOTENCY} or {@code UNIQUE_REFERENCE}).
         */
        EXACTLY_ONE_EFFECT,
        /** Never a second effect; an outcome that cannot be established goes to a person (review) instead. */
        AT_MOST_ONE_EFFECT_OR_REVIEW
    }

    /**
     * One operation in the catalogue.
     *
     * @param inputSchema null when the operation declares none (any JSON object is accepted)
     * @param dryRun      whether {@code <operation>.dry-run} is offered too
     * @param compensable whether a committed effect can be undone ({@code <operation>.compensate})
     * @param approvalRequired whether a model's call waits for an operator's approval (docs/agent-calls.md §7)
     */
    public record Operation(String tool, String name, String description, ArgumentsSchema inputSchema,
                            Guarantee guarantee, boolean destructive, boolean dryRun, boolean compensable,
                            boolean approvalRequired) {
    }

    /** One tool: its description and operations, in name order. */
    public record Tool(String name, String description, Set<Capability> capabilities, List<Operation> operations) {
    }

    private final List<Tool> tools;
    private final Map<String, Operation> byName;

    private ToolCatalogue(List<Tool> tools) {
        this.tools = List.copyOf(tools);
        Map<String, Operation> index = new TreeMap<>();
        tools.forEach(t -> t.operations().forEach(o -> index.put(t.name() + "/" + o.name(), o)));
        this.byName = Map.copyOf(index);
    }

    /**
     * @param tools    the tool YAML ({@code toolonce.executor.tools})
     * @param descriptors the descriptor of each tool's adapter, which holds its parsed capabilities
     * @throws ToolConfigException naming the tool and the field of a schema that cannot be used
     */
    public static ToolCatalogue of(Map<String, ToolProperties> tools,
                                   Function<String, Optional<ToolDescriptor>> descriptors) {
        List<Tool> out = new ArrayList<>();
        new TreeMap<>(tools).forEach((name, p) -> {
            ToolDescriptor d = descriptors.apply(name).orElseThrow(() -> new IllegalStateException(
                    "no adapter for the configured tool " + name));
            List<Operation> ops = new ArrayList<>();
            new TreeMap<>(p.operations()).forEach((op, o) -> {
                ArgumentsSchema schema = null;
                if (o.inputSchema() != null && !o.inputSchema().isBlank()) {
                    try {
                        schema = ArgumentsSchema.parse(o.inputSchema());
                    } catch (IllegalArgumentException e) {
                        throw new ToolConfigException(name, "operations." + op + ".input-schema", e.getMessage());
                    }
                }
                if (!"none".equals(o.approval()) && !"required".equals(o.approval())) {
                    throw new ToolConfigException(name, "operations." + op + ".approval", "must be none or required, "
                            + "was " + o.approval());
                }
                ops.add(new Operation(name, op, o.description(), schema,
                        d.retrySafe() ? Guarantee.EXACTLY_ONE_EFFECT : Guarantee.AT_MOST_ONE_EFFECT_OR_REVIEW,
                        o.destructive(), o.dryRun() != null, o.compensation() != null,
                        "required".equals(o.approval())));
            });
            ops.sort(Comparator.comparing(Operation::name));
            out.add(new Tool(name, p.description(), d.capabilities(), ops));
        });
        return new ToolCatalogue(out);
    }

    /** Every tool, in name order. */
    public List<Tool> tools() {
        return tools;
    }

    /** An operation by tool and name ({@code <op>.dry-run} is found as {@code <op>}). */
    public Optional<Operation> operation(String tool, String operation) {
        String base = DryRun.isDryRun(operation)
                ? operation.substring(0, operation.length() - DryRun.SUFFIX.length()) : operation;
        return Optional.ofNullable(byName.get(tool + "/" + base));
    }

    /**
     * What is wrong with a call's arguments by its operation's schema, each naming the field; empty when they are
     * valid or the operation declares no schema. A dry run is held to its operation's schema, since it checks the
     * same arguments; a compensation request is not (its arguments are the original's, checked when it was asked for).
     */
    public List<String> violations(String tool, String operation, JsonNode arguments) {
        return operation(tool, operation).map(Operation::inputSchema).map(s -> s.violations(arguments))
                .orElse(List.of());
    }
}
