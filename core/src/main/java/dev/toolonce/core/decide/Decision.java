package dev.toolonce.core.decide;

import dev.toolonce.core.call.ToolCall;

/**
 * What intake does with an intent whose scope the ledger already holds ({@link Decider#onTaken}), or that it refuses
 * before looking ({@link Decider#admit}). A new scope is planned by intake's insert alone.
 */
public sealed interface Decision {

    /** Refuse before contacting the tool; answer the intent with REJECTED {@code code}. */
    record Reject(String code, String message) implements Decision {
    }

    /** The call is in flight: record the duplicate and answer it when the call completes. */
    record AwaitCompletion(ToolCall call) implements Decision {
    }

    /** The call finished: answer with its stored result, {@code replayed: true}. */
    record Replay(ToolCall call) implements Decision {
    }

    /** The call failed retryably; the scheduler retries it when due. The duplicate waits for that outcome. */
    record RetryWhenDue(ToolCall call) implements Decision {
    }

    /** The call needs a human: no automatic action; the duplicate is told so. */
    record HoldForReview(ToolCall call) implements Decision {
    }
}
