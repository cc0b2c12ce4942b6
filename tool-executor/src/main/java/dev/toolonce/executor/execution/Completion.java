package dev.toolonce.executor.execution;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.CallKind;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.lifecycle.CallLifecycle;
import dev.toolonce.core.lifecycle.Event;
import dev.toolonce.core.lifecycle.Move;
import dev.toolonce.core.lifecycle.Verdict;
import dev.toolonce.core.outcome.ToolOutcome;
import dev.toolonce.core.retry.RetryBudget;
import dev.toolonce.executor.ledger.PausedToolStore;
import dev.toolonce.executor.ledger.ToolCallStore;
import dev.toolonce.executor.metrics.ExecutorStats;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Records one attempt's outcome in one transaction, as {@link CallLifecycle} decides it. A lost guard (the
 * sweeper or an operator moved the call) writes nothing for the attempt — but an {@code Applied} outcome
 * is evidence (docs/protocol.md §11): it is noted with the call ({@link ToolCallStore#noteEvidence}), and the
 * lifecycle decides what it does to the call as it is now (commit it, or raise the duplicate alarm).
 *
 * <p>An {@code Applied} without an external id still commits — the tool said the effect happened, and
 * anything else would send it again — but the ledger says so: the call is COMMITTED with a null
 * {@code external_object_id} and an attempt row {@value #NO_EXTERNAL_ID} explains it, and a warning is
 * logged. Such a call cannot be compensated by id, and a late duplicate of it cannot be told apart by id.
 */
public final class Completion {
    private static final Logger log = LoggerFactory.getLogger(Completion.class);
    /** Detail prefix of the attempt row that flags a success without an external id. */
    public static final String NO_EXTERNAL_ID = "APPLIED_WITHOUT_EXTERNAL_ID";

    private final ToolCallStore calls;
    private final CallFinisher finisher;
    private final ToolGateway tools;
    private final RetryBudget budget;
    private final CallLifecycle lifecycle;
    private final TransactionTemplate tx;
    private final ExecutorStats stats;
    private final PausedToolStore pauses;

    public Completion(ToolCallStore calls, CallFinisher finisher, ToolGateway tools, CallLifecycle lifecycle,
                      RetryBudget budget, TransactionTemplate tx, ExecutorStats stats, PausedToolStore pauses) {
        this.budget = budget;
        this.pauses = pauses;
        this.calls = calls;
        this.finisher = finisher;
        this.tools = tools;
        this.lifecycle = lifecycle;
        this.tx = tx;
        this.stats = stats;
    }

    /** An attempt ready to be recorded: the claim it ran under, the tool's outcome, and the ledger move for it. */
    public record Recording(ToolCall claimed, ToolOutcome outcome, Move move) {
    }

    /**
     * Asks the lifecycle how the ledger records an outcome, outside any transaction: it may read the call's age
     * and reserves retry budget, so it runs once per attempt, by the worker that ran the call.
     */
    public Recording prepare(ToolCall claimed, ToolOutcome outcome) {
        Event.AttemptEnded ended = new Event.AttemptEnded(outcome, ToolFacts.of(tools, budget, claimed),
                () -> calls.sinceFirstAttempt(claimed).orElse(Duration.ZERO));
        return new Recording(claimed, outcome, lifecycle.decide(claimed, ended).only());
    }

    /** @return the call as recorded, or empty when the guard was lost */
    public Optional<ToolCall> record(ToolCall claimed, ToolOutcome outcome) {
        return recordAll(List.of(prepare(claimed, outcome))).get(0);
    }

    /**
     * Records many attempts in one transaction (docs/protocol.md §19): each is its own guarded move, so one
     * lost guard never affects another. When the transaction fails nothing of it is written and the exception
     * propagates; the caller may then record the attempts one by one ({@link GroupCommitter} does).
     * Lost guards are dealt with after the commit, each in its own transaction, and never throw.
     *
     * @return per recording, in order, the call as recorded, or empty when its guard was lost
     */
    public List<Optional<ToolCall>> recordAll(List<Recording> recordings) {
        List<Optional<ToolCall>> done = tx.execute(s -> {
            List<Optional<ToolCall>> d = finisher.finishAll(recordings.stream()
                    .map(r -> new ToolCallStore.Finish(r.claimed(), CallState.STARTED, r.move())).toList());
            for (int i = 0; i < recordings.size(); i++) {
                Recording r = recordings.get(i);
                d.get(i).ifPresent(c -> afterWin(r.claimed(), r.outcome(), c));
            }
            return d;
        });
        for (int i = 0; i < recordings.size(); i++) {
            Recording r = recordings.get(i);
            if (done.get(i).isPresent()) {
                stats.transition(CallState.STARTED, done.get(i).get().state());
            } else {
                lostGuard(r.claimed(), r.outcome());
            }
        }
        return done;
    }

    private void afterWin(ToolCall claimed, ToolOutcome outcome, ToolCall recorded) {
        if (outcome instanceof ToolOutcome.Rejected r && r.pauseTool()) {
            // docs/adapters.md §6: credentials refused — no further call of this tool, for the tenant whose own
            // credential it was or for every tenant when it was the shared one, until an operator resumes it.
            String tenant = r.pause() == ToolOutcome.Pause.TENANT ? claimed.scope().tenantId() : PausedToolStore.EVERY_TENANT;
            pauses.pause(claimed.scope().tool(), tenant, r.code() + ": " + r.message());
            log.error("tool '{}' paused for tenant '{}' after call {} was refused with {}; resume with "
                    + "POST /tools/{}/resume?tenant={}", claimed.scope().tool(), tenant, claimed.id(), r.code(),
                    claimed.scope().tool(), tenant);
        }
        // A dry run creates nothing, so it names nothing: no id is expected of it.
        if (outcome instanceof ToolOutcome.Applied a && a.externalObjectId() == null
                && claimed.kind() != CallKind.DRY_RUN) {
            flagNoExternalId(recorded, "attempt at fence " + claimed.fence());
        }
    }

    private void lostGuard(ToolCall claimed, ToolOutcome outcome) {
        stats.lostGuard();
        log.warn("lost guard completing call {} ({}) at fence {}: outcome {} not recorded as this attempt's",
                claimed.id(), claimed.scope(), claimed.fence(), outcome);
        if (outcome instanceof ToolOutcome.Applied applied) {
            try {
                tx.executeWithoutResult(s -> lateApplied(claimed, applied));
            } catch (RuntimeException e) {
                // The evidence is also in the log line above; the reconciler or an operator settles the call.
                log.error("could not note the late Applied {} of call {}: {}", applied.externalObjectId(),
                        claimed.id(), e.toString());
            }
        }
    }

    private void flagNoExternalId(ToolCall call, String where) {
        calls.note(call, NO_EXTERNAL_ID + ": the tool reported success without a usable external id (" + where + ")");
        stats.appliedWithoutExternalId(call.scope().tool());
        log.warn("call {} ({}) committed without an external id: the tool answered success but named no usable "
                + "object; compensation by id and duplicate detection by id are impossible for it", call.id(), call.scope());
    }

    private void lateApplied(ToolCall claimed, ToolOutcome.Applied applied) {
        ToolCall current = calls.findById(claimed.id()).orElse(null);
        if (current == null) {
            return;
        }
        Event.LateApplied late = new Event.LateApplied(applied, claimed.fence());
        calls.noteEvidence(current, late.evidence());
        Verdict v = lifecycle.decide(current, late);
        if (v.duplicateAlarm()) {
            stats.duplicateAlarm();
            log.error("DUPLICATE EFFECT: call {} ({}): {}", current.id(), current.scope(), v.reason());
        }
        if (v.kind() != Verdict.Kind.MOVE) {
            return;
        }
        Move move = v.only();
        finisher.finish(current, current.state(), move).ifPresent(c -> {
            stats.transition(current.state(), move.to());
            log.info("call {} ({}) is {} from {}: {}", c.id(), c.scope(), move.to(), current.state(), v.reason());
            if (move instanceof Move.Commit && applied.externalObjectId() == null) {
                flagNoExternalId(c, late.evidence());
            }
        });
    }
}
