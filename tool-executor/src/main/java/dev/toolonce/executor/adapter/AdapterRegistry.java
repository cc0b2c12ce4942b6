package dev.toolonce.executor.adapter;

import dev.toolonce.core.adapter.ToolAdapter;
import dev.toolonce.core.call.DryRun;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.outcome.LookupOutcome;
import dev.toolonce.core.outcome.ToolOutcome;
import dev.toolonce.executor.execution.ToolGateway;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The executor's {@link ToolGateway}: dispatches each call to the adapter of its tool. Safety decisions
 * come from the adapters' descriptors — a retry after a confirmed-absent lookup is allowed only for
 * tools with {@code NATIVE_IDEMPOTENCY} or {@code UNIQUE_REFERENCE}, and for a configured dry run
 * ({@link DryRun}), which has no effect to duplicate.
 */
public final class AdapterRegistry implements ToolGateway {
    private static final Duration DEFAULT_SETTLE = Duration.ofSeconds(1);

    private final Map<String, ToolAdapter> adapters;

    public AdapterRegistry(Map<String, ToolAdapter> adapters) {
        this.adapters = Map.copyOf(adapters);
    }

    /** The adapter of a tool, if configured. */
    public Optional<ToolAdapter> adapter(String tool) {
        return Optional.ofNullable(adapters.get(tool));
    }

    @Override
    public boolean supports(String tool, String operation) {
        ToolAdapter a = adapters.get(tool);
        return a != null && a.descriptor().operations().contains(operation);
    }

    @Override
    public ToolOutcome execute(ToolCall call) {
        ToolAdapter a = adapters.get(call.scope().tool());
        return a == null ? new ToolOutcome.Rejected("UNKNOWN_TOOL", "no adapter for tool '" + call.scope().tool() + "'")
                : a.execute(call);
    }

    @Override
    public LookupOutcome lookup(ToolCall call) {
        ToolAdapter a = adapters.get(call.scope().tool());
        return a == null ? new LookupOutcome.CannotTell("no adapter for tool '" + call.scope().tool() + "'")
                : a.lookup(call);
    }

    @Override
    public boolean retrySafe(String tool, String operation) {
        ToolAdapter a = adapters.get(tool);
        return a != null && (a.descriptor().retrySafe()
                || DryRun.isDryRun(operation) && a.descriptor().operations().contains(operation));
    }

    @Override
    public Optional<dev.toolonce.core.adapter.ToolDescriptor> descriptor(String tool) {
        return adapter(tool).map(ToolAdapter::descriptor);
    }

    @Override
    public Map<String, Duration> settleDelays() {
        Map<String, Duration> settle = new java.util.HashMap<>();
        adapters.forEach((name, a) -> settle.put(name, a.descriptor().settleDelay()));
        return Map.copyOf(settle);
    }

    @Override
    public Duration settleDelay(String tool) {
        ToolAdapter a = adapters.get(tool);
        return a == null ? DEFAULT_SETTLE : a.descriptor().settleDelay();
    }
}
