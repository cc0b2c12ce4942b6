package dev.toolonce.executor.compensation;

import dev.toolonce.core.adapter.Capability;
import dev.toolonce.core.adapter.ToolAdapter;
import dev.toolonce.core.adapter.ToolDescriptor;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.Compensation;
import dev.toolonce.core.call.DryRun;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.outcome.LookupOutcome;
import dev.toolonce.core.outcome.ToolOutcome;
import dev.toolonce.executor.adapter.AdapterRegistry;
import dev.toolonce.executor.execution.ToolGateway;
import dev.toolonce.executor.ledger.ToolCallStore;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The executor's gateway with compensations (docs/protocol.md §17): a call whose operation is
 * {@code <op>.compensate} is run, retried and reconciled like any call, but what it sends is the tool's compensation
 * request for the original call ({@link ToolAdapter#compensate}), under the compensation's own provider key. It is
 * sent only while the original is {@code COMPENSATING} with an external id — {@link CompensationDriver} moves it
 * there — and answered {@code Rejected NOT_COMPENSABLE} otherwise. A compensation has no lookup: an unknown outcome
 * of one goes to review. A dry run has nothing to undo: its compensation is refused as an unknown operation. Every
 * other call passes through unchanged.
 */
public final class CompensationGateway implements ToolGateway {
    /** Error code of a compensation that cannot be sent. */
    public static final String NOT_COMPENSABLE = "NOT_COMPENSABLE";

    private final AdapterRegistry tools;
    private final ToolCallStore calls;

    /**
     * @throws IllegalStateException when a configured operation's name ends in {@value Compensation#SUFFIX}: such a
     *         name would share its scopes with compensations
     */
    public CompensationGateway(AdapterRegistry tools, ToolCallStore calls, Iterable<String> toolNames) {
        this.tools = tools;
        this.calls = calls;
        for (String tool : toolNames) {
            tools.descriptor(tool).ifPresent(d -> d.operations().stream().filter(Compensation::isCompensation)
                    .findFirst().ifPresent(op -> {
                        throw new IllegalStateException("tool '" + tool + "': toolonce.executor.tools." + tool
                                + ".operations." + op + " ends in '" + Compensation.SUFFIX
                                + "', which names compensations (docs/protocol.md §17); rename the operation");
                    }));
        }
    }

    @Override
    public boolean supports(String tool, String operation) {
        if (!Compensation.isCompensation(operation)) {
            return tools.supports(tool, operation);
        }
        String original = operation.substring(0, operation.length() - Compensation.SUFFIX.length());
        return !DryRun.isDryRun(original) && tools.supports(tool, original)
                && tools.descriptor(tool).map(d -> d.has(Capability.COMPENSATION)).orElse(false);
    }

    @Override
    public ToolOutcome execute(ToolCall call) {
        if (!Compensation.isCompensation(call.scope())) {
            return tools.execute(call);
        }
        Optional<ToolCall> original = calls.find(Compensation.originalOf(call.scope()));
        if (original.isEmpty()) {
            return refused("no call " + Compensation.originalOf(call.scope()) + " to compensate");
        }
        ToolCall o = original.get();
        if (o.state() != CallState.COMPENSATING || o.externalObjectId() == null) {
            return refused("the original " + o.scope() + " is " + o.state()
                    + (o.externalObjectId() == null ? " without an external id" : "") + "; only a COMPENSATING call "
                    + "with an external id is compensated");
        }
        ToolAdapter adapter = tools.adapter(call.scope().tool()).orElse(null);
        if (adapter == null) {
            return refused("no adapter for tool '" + call.scope().tool() + "'");
        }
        // The compensation's own fence (sandbox headers) and trace go to the tool, not the original's.
        return adapter.compensate(new ToolCall(o.id(), o.scope(), o.providerKey(), o.requestHash(), o.argumentsJson(),
                o.state(), call.fence(), o.callVersion(), o.attempts(), o.externalObjectId(), o.resultJson(),
                o.errorCode(), o.errorMessage(), o.taskId(), o.stepId(), o.intentMessageId(), call.traceparent(),
                o.terminalAt(), o.facts()));
    }

    private static ToolOutcome refused(String why) {
        return new ToolOutcome.Rejected(NOT_COMPENSABLE, why);
    }

    @Override
    public LookupOutcome lookup(ToolCall call) {
        if (Compensation.isCompensation(call.scope())) {
            return new LookupOutcome.CannotTell("a compensation has no lookup; an operator decides whether it applied");
        }
        return tools.lookup(call);
    }

    @Override
    public boolean retrySafe(String tool, String operation) {
        return tools.retrySafe(tool, operation);
    }

    @Override
    public Duration settleDelay(String tool) {
        return tools.settleDelay(tool);
    }

    @Override
    public Optional<ToolDescriptor> descriptor(String tool) {
        return tools.descriptor(tool);
    }

    @Override
    public Map<String, Duration> settleDelays() {
        return tools.settleDelays();
    }
}
