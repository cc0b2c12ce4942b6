package dev.toolonce.bench.report;

/**
 * The untimed warm-up before the first timed phase: nothing of it enters any figure.
 *
 * @param intents       intents sent straight to Kafka
 * @param loadPerSecond calls per second then offered through the agent outbox
 * @param loadSeconds   for how long
 * @param unanswered    warm-up calls with no answer within the timeout (not counted as lost)
 * @param seconds       how long the warm-up took
 */
public record WarmupResult(int intents, double loadPerSecond, long loadSeconds, long unanswered, double seconds) {
}
