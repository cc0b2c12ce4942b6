package dev.toolonce.executor.execution;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.executor.results.ResultEvents;
import dev.toolonce.executor.results.ResultEvents.Addressee;
import dev.toolonce.jdbc.PendingReplyStore;
import dev.toolonce.jdbc.ToolCallStore;
import dev.toolonce.jdbc.ToolCallStore.Finish;
import java.util.Optional;

/**
 * The one place where a call moves to a new state with its consequences, in the caller's transaction:
 * the guarded update, and — when the new state carries an answer — the result event for the intent that
 * planned the call plus the answers to every duplicate that waited for it.
 */
public final class CallFinisher {
    private final ToolCallStore calls;
    private final PendingReplyStore pending;
    private final ResultEvents results;

    public CallFinisher(ToolCallStore calls, PendingReplyStore pending, ResultEvents results) {
        this.calls = calls;
        this.pending = pending;
        this.results = results;
    }

    /**
     * Must run in a transaction.
     *
     * @return the updated call, or empty when {@code (id, from, fence)} no longer matches (lost guard)
     */
    public Optional<ToolCall> finish(ToolCall call, CallState from, Finish f) {
        Optional<ToolCall> updated = calls.finish(call, from, f);
        updated.filter(CallFinisher::answers).ifPresent(this::publish);
        return updated;
    }

    private void publish(ToolCall call) {
        results.outcome(call, new Addressee(call.intentMessageId(), call.taskId(), call.stepId()), false);
        pending.take(call.id()).forEach(p ->
                results.outcome(call, new Addressee(p.intentMessageId(), p.taskId(), p.stepId()), true));
    }

    /** States whose outcome is reported to the agent. */
    static boolean answers(ToolCall call) {
        return call.state().isTerminal() || call.state() == CallState.NEEDS_REVIEW;
    }
}
