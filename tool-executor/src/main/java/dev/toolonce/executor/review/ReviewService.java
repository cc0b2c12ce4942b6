package dev.toolonce.executor.review;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.executor.execution.CallFinisher;
import dev.toolonce.executor.execution.Completion;
import dev.toolonce.executor.web.ExecutorStats;
import dev.toolonce.jdbc.ToolCallStore;
import dev.toolonce.jdbc.ToolCallStore.Finish;
import java.time.Duration;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Human decisions on calls in NEEDS_REVIEW (docs/protocol.md §16): commit with the external id the operator
 * found, retry (after the operator reconciled by hand), or fail. Each resolution is a guarded transition,
 * an audit row and — for commit and fail — a result event, all in one transaction.
 */
public final class ReviewService {
    private static final String AUDIT = """
            INSERT INTO %s.review_audit (call_id, scope, action, external_id, operator, note, fence)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """;

    /** What the operator decided. */
    public enum Action { COMMIT, RETRY, FAIL }

    private final ToolCallStore calls;
    private final CallFinisher finisher;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final ExecutorStats stats;
    private final String audit;

    public ReviewService(ToolCallStore calls, CallFinisher finisher, JdbcTemplate jdbc, TransactionTemplate tx,
                         ExecutorStats stats, String schema) {
        this.calls = calls;
        this.finisher = finisher;
        this.jdbc = jdbc;
        this.tx = tx;
        this.stats = stats;
        this.audit = AUDIT.formatted(schema);
    }

    /** Calls waiting for a human, oldest first. */
    public List<ToolCall> pending(int limit) {
        return calls.inState(CallState.NEEDS_REVIEW, limit);
    }

    /**
     * @param externalId required for {@link Action#COMMIT}, ignored otherwise
     * @return the call after the resolution
     * @throws IllegalArgumentException when the scope is unknown, not in review, or commit lacks an id
     * @throws IllegalStateException when someone else resolved it first (lost guard), or a retry is refused
     *         because the effect may exist: the call has an external id, evidence of an effect (a late
     *         Applied), or a duplicate alarm — sending it again could apply it twice; commit or fail instead
     */
    public ToolCall resolve(CallScope scope, Action action, String externalId, String operator, String note) {
        if (action == Action.COMMIT && (externalId == null || externalId.isBlank())) {
            throw new IllegalArgumentException("commit needs the external id of the effect the operator found");
        }
        return tx.execute(s -> {
            ToolCall call = calls.find(scope).orElseThrow(() -> new IllegalArgumentException("no call for scope " + scope));
            if (call.state() != CallState.NEEDS_REVIEW) {
                throw new IllegalArgumentException("call " + scope + " is " + call.state() + ", not NEEDS_REVIEW");
            }
            if (action == Action.RETRY) {
                refuseRetryOfAnEffect(call);
            }
            ToolCall done = finisher.finish(call, CallState.NEEDS_REVIEW, finish(action, externalId, operator, note))
                    .orElseThrow(() -> new IllegalStateException("call " + scope + " was resolved concurrently"));
            jdbc.update(audit, call.id(), scope.recordKey(), action.name().toLowerCase(), externalId, operator, note,
                    call.fence());
            stats.review(action.name().toLowerCase());
            return done;
        });
    }

    /** An operator's retry resends the effect: never for a call whose effect is known or may exist. */
    private void refuseRetryOfAnEffect(ToolCall call) {
        String why = call.externalObjectId() != null ? "it has an external id (" + call.externalObjectId() + ")"
                : Completion.DUPLICATE_EFFECT.equals(call.errorCode()) ? "it carries a duplicate alarm"
                : calls.hasEvidenceOfEffect(call.id()) ? "a fenced-out attempt reported the effect applied (evidence "
                        + "in its attempt history)"
                : null;
        if (why != null) {
            throw new IllegalStateException("retry of " + call.scope() + " refused: " + why
                    + "; resolve it with commit (the effect exists) or fail");
        }
    }

    private static Finish finish(Action action, String externalId, String operator, String note) {
        String why = "resolved by " + operator + (note == null || note.isBlank() ? "" : ": " + note);
        return switch (action) {
            case COMMIT -> new Finish(CallState.COMMITTED, externalId, null, null, null, null, null, true);
            case RETRY -> new Finish(CallState.FAILED_RETRYABLE, null, null, "OPERATOR", null, why, Duration.ZERO, false);
            case FAIL -> new Finish(CallState.FAILED_FINAL, null, null, "OPERATOR", "OPERATOR_FAILED", why, null, true);
        };
    }
}
