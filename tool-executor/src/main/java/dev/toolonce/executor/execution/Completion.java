package dev.toolonce.executor.execution;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.outcome.ToolOutcome;
import dev.toolonce.core.retry.RetryBudget;
import dev.toolonce.core.retry.RetryPolicy;
import dev.toolonce.executor.pause.ToolPauses;
import dev.toolonce.executor.web.ExecutorStats;
import dev.toolonce.jdbc.ToolCallStore;
import dev.toolonce.jdbc.ToolCallStore.Finish;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Records one attempt's outcome in one transaction. A lost guard (the sweeper or an operator moved the
 * call) writes nothing for the attempt — but an {@code Applied} outcome is evidence (DESIGN.md point 8):
 * it commits a call that was still open, and raises a duplicate alarm when the call was already
 * committed with another external id.
 */
public final class Completion {
    private static final Logger log = LoggerFactory.getLogger(Completion.class);
    private static final Set<CallState> OPEN = EnumSet.of(CallState.STARTED, CallState.UNKNOWN,
            CallState.RECONCILING, CallState.FAILED_RETRYABLE);

    private final ToolCallStore calls;
    private final CallFinisher finisher;
    private final ToolGateway tools;
    private final RetryPolicy retry;
    private final RetryBudget budget;
    private final TransactionTemplate tx;
    private final ExecutorStats stats;
    private final ToolPauses pauses;

    public Completion(ToolCallStore calls, CallFinisher finisher, ToolGateway tools, RetryPolicy retry,
                      RetryBudget budget, TransactionTemplate tx, ExecutorStats stats, ToolPauses pauses) {
        this.budget = budget;
        this.pauses = pauses;
        this.calls = calls;
        this.finisher = finisher;
        this.tools = tools;
        this.retry = retry;
        this.tx = tx;
        this.stats = stats;
    }

    /** @return the call as recorded, or empty when the guard was lost */
    public Optional<ToolCall> record(ToolCall claimed, ToolOutcome outcome) {
        Finish finish = finishFor(claimed, outcome);
        Optional<ToolCall> done = tx.execute(s -> {
            Optional<ToolCall> d = finisher.finish(claimed, CallState.STARTED, finish);
            if (d.isPresent() && outcome instanceof ToolOutcome.Rejected r && r.pauseTool()) {
                // DESIGN.md point 7: credentials refused — no further call of this tool until an operator resumes it.
                pauses.pause(claimed.scope().tool(), r.code() + ": " + r.message());
                log.error("tool '{}' paused after call {} was refused with {}; resume with POST /tools/{}/resume",
                        claimed.scope().tool(), claimed.id(), r.code(), claimed.scope().tool());
            }
            return d;
        });
        if (done.isPresent()) {
            stats.transition(CallState.STARTED, done.get().state());
            return done;
        }
        stats.lostGuard();
        log.warn("lost guard completing call {} ({}) at fence {}: outcome {} not recorded as this attempt's",
                claimed.id(), claimed.scope(), claimed.fence(), outcome);
        if (outcome instanceof ToolOutcome.Applied applied) {
            tx.executeWithoutResult(s -> lateApplied(claimed, applied));
        }
        return Optional.empty();
    }

    private void lateApplied(ToolCall claimed, ToolOutcome.Applied applied) {
        ToolCall current = calls.findById(claimed.id()).orElse(null);
        if (current == null) {
            return;
        }
        String evidence = "late Applied " + applied.externalObjectId() + " from fenced-out attempt at fence " + claimed.fence();
        calls.note(current, evidence);
        if (OPEN.contains(current.state())) {
            finisher.finish(current, current.state(), new Finish(CallState.COMMITTED, applied.externalObjectId(),
                    applied.resultJson(), null, null, null, null, true))
                    .ifPresent(c -> stats.transition(current.state(), CallState.COMMITTED));
        } else if (current.state() == CallState.COMMITTED
                && !java.util.Objects.equals(current.externalObjectId(), applied.externalObjectId())) {
            stats.duplicateAlarm();
            log.error("DUPLICATE EFFECT: call {} ({}) committed as {} but a fenced-out attempt also applied {}",
                    current.id(), current.scope(), current.externalObjectId(), applied.externalObjectId());
            finisher.finish(current, CallState.COMMITTED, new Finish(CallState.NEEDS_REVIEW, null, null,
                    "DUPLICATE", "DUPLICATE_EFFECT", evidence + " while committed as " + current.externalObjectId(),
                    null, true)).ifPresent(c -> stats.transition(CallState.COMMITTED, CallState.NEEDS_REVIEW));
        }
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
            Duration wait = budget.reserve(call.scope().tool(),
                    retry.delay(call.attempts(), r.retryAfter(), ThreadLocalRandom.current()::nextDouble));
            return new Finish(CallState.FAILED_RETRYABLE, null, null, "RETRYABLE", null, r.reason(), wait, false);
        }
        ToolOutcome.Indeterminate i = (ToolOutcome.Indeterminate) outcome;
        return new Finish(CallState.UNKNOWN, null, null, "INDETERMINATE", null, i.reason(),
                tools.settleDelay(call.scope().tool()), false);
    }
}
