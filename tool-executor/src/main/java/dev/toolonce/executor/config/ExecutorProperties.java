package dev.toolonce.executor.config;

import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code toolonce.executor.*}.
 *
 * @param schema           database schema of the ledger, inbox and outbox (default {@code executor})
 * @param source           {@code ce_source} of the result events
 * @param intentsTopic     consumed topic of tool intents
 * @param resultsTopic     topic the result events go to (through the outbox)
 * @param deadLetterTopic  where intents that never reach the database go, synchronously
 * @param consumerGroup    the inbox's consumer group name (also the Kafka group id)
 * @param workers          concurrent tool calls (size of the dispatch pool)
 * @param claimBatch       most calls claimed by one claim statement
 * @param lease            how long a claim holds a call before its outcome counts as unknown
 * @param maxAttempts      attempts before a confirmed-absent call becomes FAILED_FINAL
 * @param retryBase        first backoff of a retryable failure
 * @param retryCap         longest backoff
 * @param maxPayloadBytes  intents larger than this are dead-lettered with {@code PAYLOAD_TOO_LARGE}
 * @param acceptanceWindow intents requested longer ago are refused with {@code IDEMPOTENCY_KEY_EXPIRED}
 * @param idlePoll         how often the dispatcher looks for due work when nobody wakes it
 * @param tools            the tools this executor may call, by name
 */
@ConfigurationProperties("toolonce.executor")
public record ExecutorProperties(
        @DefaultValue("executor") String schema,
        @DefaultValue("/toolonce/tool-executor") String source,
        @DefaultValue("toolonce.tool-intents") String intentsTopic,
        @DefaultValue("toolonce.tool-results") String resultsTopic,
        @DefaultValue("toolonce.tool-intents.dlq") String deadLetterTopic,
        @DefaultValue("toolonce-executor") String consumerGroup,
        @DefaultValue("32") int workers,
        @DefaultValue("64") int claimBatch,
        @DefaultValue("60s") Duration lease,
        @DefaultValue("5") int maxAttempts,
        @DefaultValue("200ms") Duration retryBase,
        @DefaultValue("30s") Duration retryCap,
        @DefaultValue("262144") int maxPayloadBytes,
        @DefaultValue("6d") Duration acceptanceWindow,
        @DefaultValue("200ms") Duration idlePoll,
        Map<String, ToolProperties> tools) {

    public ExecutorProperties {
        tools = tools == null ? Map.of() : Map.copyOf(tools);
        if (workers < 1 || claimBatch < 1) {
            throw new IllegalArgumentException("toolonce.executor.workers and claim-batch must be >= 1");
        }
    }
}
