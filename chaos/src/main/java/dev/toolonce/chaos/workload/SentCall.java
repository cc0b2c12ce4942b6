package dev.toolonce.chaos.workload;

/**
 * One intent message the workload handed to the stack.
 *
 * @param messageId the intent's {@code messageId} ({@code ce_id}); the results topic answers it by this id
 * @param tenant    the round's tenant
 * @param opId      the workload's own operation id, in the arguments: the sandbox ledger records it with every
 *                  effect, so ground truth is counted by it and never by anything the executor sets
 * @param kind      why it was sent
 * @param sentNanos {@link System#nanoTime()} when it was handed over
 * @param inDoubt   whether the hand-over failed ambiguously (a commit or send error while PostgreSQL or Kafka was
 *                  down): it may or may not have gone in, so its missing answer is not counted as lost
 */
public record SentCall(String messageId, String tenant, String opId, Kind kind, long sentNanos, boolean inDoubt) {

    /** How a message came to be sent. */
    public enum Kind {
        /** A single call through the agent's outbox ({@code IntentPublisher}). */
        OUTBOX,
        /** A single call produced straight to Kafka. */
        KAFKA,
        /** The same key and arguments again under a new message id: a client retry. */
        CLIENT_RETRY,
        /** The same key with other arguments: must be refused, never applied. */
        CONFLICT,
        /** One of 64 concurrent deliveries of one key. */
        CONCURRENT,
        /** The compensation request of a call of this round ({@code <operation>.compensate}, the call's key). */
        COMPENSATION
    }

    public SentCall doubtful() {
        return new SentCall(messageId, tenant, opId, kind, sentNanos, true);
    }
}
