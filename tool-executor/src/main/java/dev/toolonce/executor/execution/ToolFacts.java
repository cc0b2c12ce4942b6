package dev.toolonce.executor.execution;

import dev.toolonce.core.adapter.ToolDescriptor;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.lifecycle.Event;
import dev.toolonce.core.retry.RetryBudget;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/** What the lifecycle needs to know about a call's tool ({@link Event.Tool}), read from the executor's configuration. */
public final class ToolFacts {
    private ToolFacts() {
    }

    /** The facts of {@code call}'s tool; its retry budget is reserved only if the lifecycle schedules a resend. */
    public static Event.Tool of(ToolGateway tools, RetryBudget budget, ToolCall call) {
        String tool = call.scope().tool();
        Optional<ToolDescriptor> d = tools.descriptor(tool);
        return new Event.Tool(d.map(ToolDescriptor::idempotencyWindow).orElse(null),
                d.map(ToolDescriptor::totalTimeout).orElse(Duration.ZERO), tools.settleDelay(tool),
                tools.retrySafe(tool, call.scope().operation()), wait -> budget.reserve(tool, wait),
                () -> ThreadLocalRandom.current().nextDouble());
    }
}
