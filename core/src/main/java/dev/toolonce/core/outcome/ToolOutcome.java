package dev.toolonce.core.outcome;

import java.time.Duration;

/**
 * What one attempt at a tool produced (DESIGN.md point 7). Adapters return one of these instead of
 * throwing; only the adapter knows whether a failure came before or after the request was sent.
 */
public sealed interface ToolOutcome {

    /** The effect happened; {@code externalObjectId} may be null when the tool names nothing. */
    record Applied(String externalObjectId, String resultJson) implements ToolOutcome {
    }

    /** The tool refused; nothing happened. {@code pauseTool} for 401/403, {@code needsReview} for key reuse. */
    record Rejected(String code, String message, boolean pauseTool, boolean needsReview) implements ToolOutcome {
        public Rejected(String code, String message) {
            this(code, message, false, false);
        }
    }

    /** Confirmed not applied (429, connection refused); may be retried after {@code retryAfter} (nullable). */
    record Retryable(String reason, Duration retryAfter) implements ToolOutcome {
    }

    /** Cannot tell whether the effect happened (timeout after sending, reset, 5xx, 409 in progress...). */
    record Indeterminate(String reason) implements ToolOutcome {
    }
}
