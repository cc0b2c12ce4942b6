package dev.toolonce.executor.execution;

import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.outcome.ToolOutcome;

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
}
