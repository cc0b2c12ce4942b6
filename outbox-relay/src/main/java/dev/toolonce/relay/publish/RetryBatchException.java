package dev.toolonce.relay.publish;

/**
 * Thrown out of {@code handleBatch} when a batch could not be published for a reason that a
 * later attempt may cure (broker down, timeouts). Nothing of the batch was marked processed,
 * so the engine is restarted and the batch arrives again (duplicates on the topics are allowed).
 */
public class RetryBatchException extends RuntimeException {

    public RetryBatchException(String message, Throwable cause) {
        super(message, cause);
    }
}
