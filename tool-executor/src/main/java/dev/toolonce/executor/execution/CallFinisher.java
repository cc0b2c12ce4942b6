package dev.toolonce.executor.execution;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.lifecycle.Move;
import dev.toolonce.executor.results.ResultEvents;
import dev.toolonce.executor.results.ResultEvents.Addressee;
import dev.toolonce.executor.results.ResultEvents.Answer;
import dev.toolonce.executor.ledger.PendingReplyStore;
import dev.toolonce.executor.ledger.PendingReplyStore.PendingReply;
import dev.toolonce.executor.ledger.ToolCallStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    public Optional<ToolCall> finish(ToolCall call, CallState from, Move move) {
        return finishAll(List.of(new ToolCallStore.Finish(call, from, move))).get(0);
    }

    /**
     * Many writes in the caller's transaction: one guarded update per call (in id order, {@link
     * ToolCallStore#finishAll}), then the answers of all of them (their waiting duplicates taken in one statement,
     * their result events in one batched insert).
     *
     * @return per write, in order, the updated call or empty when its guard was lost
     */
    public List<Optional<ToolCall>> finishAll(List<ToolCallStore.Finish> writes) {
        List<Optional<ToolCall>> done = calls.finishAll(writes);
        publish(done.stream().flatMap(Optional::stream).filter(CallFinisher::answers).toList());
        return done;
    }

    private void publish(List<ToolCall> answered) {
        if (answered.isEmpty()) {
            return;
        }
        Map<Long, List<PendingReply>> waiting = pending.takeAll(answered.stream().map(ToolCall::id).toList());
        List<Answer> answers = new ArrayList<>();
        for (ToolCall call : answered) {
            answers.add(new Answer(call, new Addressee(call.intentMessageId(), call.taskId(), call.stepId(),
                    call.traceparent()), false));
            for (PendingReply p : waiting.getOrDefault(call.id(), List.of())) {
                answers.add(new Answer(call, new Addressee(p.intentMessageId(), p.taskId(), p.stepId(), p.traceparent()),
                        true));
            }
        }
        results.outcomes(answers);
    }

    /** States whose outcome is reported to the agent. */
    static boolean answers(ToolCall call) {
        return call.state().isTerminal() || call.state() == CallState.NEEDS_REVIEW;
    }
}
