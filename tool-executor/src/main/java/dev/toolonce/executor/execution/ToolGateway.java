package dev.toolonce.executor.execution;

import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.outcome.LookupOutcome;
import dev.toolonce.core.outcome.ToolOutcome;
import java.time.Duration;

/** The executor's port to the outside world: one attempt at a claimed call. */
public interface ToolGateway {

    /** Whether {@code tool/operation} is configured; intents for anything else are REJECTED UNKNOWN_TOOL. */
    boolean supports(String tool, String operation);

    /**
     * Sends the call once. Never throws for tool failures: every failure is classified as an outcome.
     *
     * @param call a call claimed by this worker (its fence is the claim's)
     */
    ToolOutcome execute(ToolCall call);

    /**
     * Asks the tool whether an earlier attempt of this call took effect, by provider key or reference.
     * Never throws; a tool without a lookup answers {@link LookupOutcome.CannotTell}.
     */
    LookupOutcome lookup(ToolCall call);

    /** Whether a confirmed-absent call may be sent again (native idempotency or a unique reference). */
    boolean retrySafe(String tool, String operation);

    /** How long to wait after an unknown outcome before asking the tool. */
    Duration settleDelay(String tool);

    /**
     * What the executor knows about a tool (capabilities, idempotency window, timeouts); empty for a tool
     * that is not configured.
     */
    default java.util.Optional<dev.toolonce.core.adapter.ToolDescriptor> descriptor(String tool) {
        return java.util.Optional.empty();
    }

    /** Every configured tool's settle delay, for sweeps that handle many tools at once. */
    default java.util.Map<String, Duration> settleDelays() {
        return java.util.Map.of();
    }
}
