package dev.toolonce.agent.call;

import dev.toolonce.schemas.ResultStatus;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * What an awaitable call gives back ({@link ToolCalls}): the call's answer, or, when the wait ended first, that it is
 * still pending. A pending call goes on; {@link ToolCalls#await} waits for it again by its {@link CallRef}.
 */
public sealed interface CallOutcome {

    /** The call's row. */
    CallRef ref();

    /** The statuses that end a call's wait: every result status but {@code NEEDS_REVIEW}, which a person resolves. */
    Set<String> FINAL = Set.of(ResultStatus.COMMITTED.name(), ResultStatus.FAILED_FINAL.name(),
            ResultStatus.REJECTED.name(), ResultStatus.COMPENSATED.name());

    /**
     * The call's answer, as its {@code agent_step} row holds it.
     *
     * @param status           {@code COMMITTED}, {@code FAILED_FINAL}, {@code REJECTED} or {@code COMPENSATED}
     * @param result           the tool's answer; null when it gave none
     * @param externalObjectId the object the effect created; may be null
     * @param errorCode        why it did not commit (a code of docs/contract.md §8); null when it did
     * @param errorMessage     the sentence that goes with {@code errorCode}
     * @param callVersion      the result's {@code callVersion}
     * @param replayed         true when this call did not ask for the effect itself: the key had been asked for before
     *                         (a re-run after a crash, a second caller), and this is that request's answer
     */
    record Answered(CallRef ref, ResultStatus status, JsonNode result, String externalObjectId, String errorCode,
                    String errorMessage, long callVersion, boolean replayed) implements CallOutcome {

        /** An effect's answer: {@code result} is what the tool answered (null when it gave none). */
        public static Answered committed(CallRef ref, JsonNode result, boolean replayed) {
            return new Answered(ref, ResultStatus.COMMITTED, result, null, null, null, 0, replayed);
        }

        /** A call that failed for good: {@code code} and {@code message} say why. */
        public static Answered failed(CallRef ref, String code, String message, boolean replayed) {
            return new Answered(ref, ResultStatus.FAILED_FINAL, null, null, code, message, 0, replayed);
        }

        /**
         * A call refused before any effect was asked for here, e.g. {@code IDEMPOTENCY_PARAMETER_MISMATCH}: the key
         * was asked for before, so the refusal answers that earlier request ({@code replayed}).
         */
        public static Answered refusedAsAskedBefore(CallRef ref, String code, String message) {
            return new Answered(ref, ResultStatus.REJECTED, null, null, code, message, 0, true);
        }

        /** Whether the effect happened (and was not undone). */
        public boolean committed() {
            return status == ResultStatus.COMMITTED;
        }

        Answered asReplayed() {
            return replayed ? this : new Answered(ref, status, result, externalObjectId, errorCode, errorMessage,
                    callVersion, true);
        }
    }

    /**
     * The wait ended before an answer. The call goes on.
     *
     * @param status {@code PENDING} (no answer yet) or {@code NEEDS_REVIEW} (a person decides; docs/operations.md)
     */
    record Pending(CallRef ref, String status) implements CallOutcome {
    }
}
