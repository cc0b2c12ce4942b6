package dev.toolonce.agent.results;

import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolResult;

/**
 * The one rule of whether a result applies to a step's call (docs/contract.md §10, docs/protocol.md §15), pure: no I/O.
 * In this order:
 * <ol>
 *   <li>a {@code REJECTED MESSAGE_ID_REUSED} answer never applies: it is addressed to the reused message id, which is
 *       the original step's own, but it answers the other payload sent under it; nor does a {@code REJECTED
 *       TENANT_NOT_SERVED} one: it comes from a ledger shard that does not serve the tenant (a misrouted intent,
 *       docs/scaling.md §3), which knows nothing of the call — the shard that serves it decides, so the step waits for
 *       that answer instead of failing on this one;</li>
 *   <li>only a {@code callVersion} newer than the one the call last applied applies (so duplicates, replays under a
 *       new message id and older outcomes change nothing; a rejection carries version 0, so it can only be a call's
 *       first answer);</li>
 *   <li>a {@code REJECTED} answer applies only to the step whose own intent it answers, so a conflicting or expired
 *       request never overwrites the original's step.</li>
 * </ol>
 *
 * <p>{@link StepResults} is the one guarded write of
 * {@code agent_step}: its {@code APPLY} statement evaluates clauses 2 and 3 on the locked row ({@code call_version}
 * and {@code intent_message_ids}), which two racing results need, and takes clause 1 from {@link #neverApplies};
 * {@code StepResultsContract#theGuardedUpdateAgreesWithTheResultRuleInEveryCase} feeds every case to both. The
 * {@code agent_step} row is the one record of a call's outcome (docs/agent-tasks.md §3a): the task engine does not
 * decide again, it acts on the results {@link StepResults} applied. "The step's own intent" is any message the call's
 * intent was published under ({@code agent_step.intent_message_ids}: a resume re-publishes it under a new one).
 */
public final class ResultRule {

    /** What the rule says of a result; {@link #reason()} is what {@code step_result_log} records. */
    public enum Verdict {
        APPLY("applied"),
        MESSAGE_ID_REUSED("MESSAGE_ID_REUSED answers another payload sent under this step's message id; step unchanged"),
        TENANT_NOT_SERVED("TENANT_NOT_SERVED: a ledger shard that does not serve this tenant refused a misrouted intent; "
                + "the step waits for the answer of its tenant's shard (fix the agents' shard map)"),
        NOT_NEWER("the step's call version is not older than the result's (a duplicate, a replay or an older outcome)"),
        NOT_OWN_INTENT("rejection not addressed to this step's own intent");

        private final String reason;

        Verdict(String reason) {
            this.reason = reason;
        }

        public String reason() {
            return reason;
        }
    }

    /** The error codes of rejections that are never applied to a step (clause 1). */
    public static final String MESSAGE_ID_REUSED = "MESSAGE_ID_REUSED";
    public static final String TENANT_NOT_SERVED = "TENANT_NOT_SERVED";

    private ResultRule() {
    }

    /**
     * @param status         the result's status, not null
     * @param errorCode      the result's error code, or null
     * @param callVersion    the result's {@code callVersion}
     * @param appliedVersion the newest {@code callVersion} the step's call applied; -1 before any
     * @param ownIntent      whether the result answers the step's own intent (see the class comment)
     */
    public static Verdict decide(ResultStatus status, String errorCode, long callVersion, long appliedVersion,
                                 boolean ownIntent) {
        if (neverApplies(status, errorCode)) {
            return TENANT_NOT_SERVED.equals(errorCode) ? Verdict.TENANT_NOT_SERVED : Verdict.MESSAGE_ID_REUSED;
        }
        if (callVersion <= appliedVersion) {
            return Verdict.NOT_NEWER;
        }
        if (needsOwnIntent(status) && !ownIntent) {
            return Verdict.NOT_OWN_INTENT;
        }
        return Verdict.APPLY;
    }

    /** {@link #decide(ResultStatus, String, long, long, boolean)} of a result. */
    public static Verdict decide(ToolResult r, long appliedVersion, boolean ownIntent) {
        return decide(r.status(), errorCode(r), r.callVersion(), appliedVersion, ownIntent);
    }

    /** Whether a result applies to a step. */
    public static boolean applies(ToolResult r, long appliedVersion, boolean ownIntent) {
        return decide(r, appliedVersion, ownIntent) == Verdict.APPLY;
    }

    /** Clause 1: whether the result applies to no step whatever the step is. */
    public static boolean neverApplies(ResultStatus status, String errorCode) {
        return status == ResultStatus.REJECTED
                && (MESSAGE_ID_REUSED.equals(errorCode) || TENANT_NOT_SERVED.equals(errorCode));
    }

    /** Clause 3: whether the result applies only to the step whose own intent it answers. */
    public static boolean needsOwnIntent(ResultStatus status) {
        return status == ResultStatus.REJECTED;
    }

    static String errorCode(ToolResult r) {
        return r.error() == null ? null : r.error().code();
    }
}
