package dev.toolonce.executor.execution;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.outcome.ToolOutcome;
import dev.toolonce.core.retry.RetryPolicy;
import dev.toolonce.executor.results.ResultEvents;
import dev.toolonce.executor.results.ResultEvents.Addressee;
import dev.toolonce.executor.web.ExecutorStats;
import dev.toolonce.jdbc.PendingReplyStore;
import dev.toolonce.jdbc.ToolCallStore;
import dev.toolonce.jdbc.ToolCallStore.Finish;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Records one attempt's outcome in one transaction: the guarded ledger update, the result event for
 * the intent that planned the call, and the answers to duplicates that waited for it. A lost guard
 * (someone else moved the call) writes nothing and is counted.
 */
public final class Completion {
    private static final Logger log = LoggerFactory.getLogger(Completion.class);

    private final ToolCallStore calls;
    private final PendingReplyStore pending;
    private final ResultEvents results;
    private final RetryPolicy retry;
    private final TransactionTemplate tx;
    private final ExecutorStats stats;

    public Completion(ToolCallStore calls, PendingReplyStore pending, ResultEvents results, RetryPolicy retry,
                      TransactionTemplate tx, ExecutorStats stats) {
        this.calls = calls;
        this.pending = pending;
        this.results = results;
        this.retry = retry;
        this.tx = tx;
        this.stats = stats;
    }

    /** @return the call as recorded, or empty when the guard was lost */
    public Optional<ToolCall> record(ToolCall claimed, ToolOutcome outcome) {
        Finish finish = finishFor(claimed, outcome);
        Optional<ToolCall> done = tx.execute(s -> {
            Optional<ToolCall> updated = calls.finish(claimed, CallState.STARTED, finish);
            updated.filter(Completion::hasResult).ifPresent(this::publish);
            return updated;
        });
        if (done.isEmpty()) {
            stats.lostGuard();
            log.warn("lost guard completing call {} ({}) at fence {}: outcome {} not recorded",
                    claimed.id(), claimed.scope(), claimed.fence(), outcome);
        } else {
            stats.finished(done.get().state());
        }
        return done;
    }

    private void publish(ToolCall call) {
        results.outcome(call, new Addressee(call.intentMessageId(), call.taskId(), call.stepId()), false);
        pending.take(call.id()).forEach(p ->
                results.outcome(call, new Addressee(p.intentMessageId(), p.taskId(), p.stepId()), true));
    }

    private static boolean hasResult(ToolCall call) {
        return call.state().isTerminal() || call.state() == CallState.NEEDS_REVIEW;
    }

    private Finish finishFor(ToolCall call, ToolOutcome outcome) {
        if (outcome instanceof ToolOutcome.Applied a) {
            return new Finish(CallState.COMMITTED, a.externalObjectId(), a.resultJson(), null, null, null, null, true);
        }
        if (outcome instanceof ToolOutcome.Rejected r) {
            CallState to = r.needsReview() ? CallState.NEEDS_REVIEW : CallState.FAILED_FINAL;
            return new Finish(to, null, null, "REJECTED", r.code(), r.message(), null, true);
        }
        if (outcome instanceof ToolOutcome.Retryable r) {
            if (!retry.allowsAnother(call.attempts())) {
                return new Finish(CallState.FAILED_FINAL, null, null, "RETRYABLE", "RETRIES_EXHAUSTED",
                        "gave up after " + call.attempts() + " attempts; last: " + r.reason(), null, true);
            }
            Duration wait = retry.delay(call.attempts(), r.retryAfter(), ThreadLocalRandom.current()::nextDouble);
            return new Finish(CallState.FAILED_RETRYABLE, null, null, "RETRYABLE", null, r.reason(), wait, false);
        }
        ToolOutcome.Indeterminate i = (ToolOutcome.Indeterminate) outcome;
        return new Finish(CallState.UNKNOWN, null, null, "INDETERMINATE", null, i.reason(), null, false);
    }
}
