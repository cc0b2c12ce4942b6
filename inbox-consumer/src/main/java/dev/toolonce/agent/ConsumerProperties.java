package dev.toolonce.agent;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code toolonce.consumer.*}.
 *
 * @param schema          the agent's schema ({@code agent_step}, {@code inbox_message}, {@code outbox_event})
 * @param resultsTopic    the consumed result topic
 * @param deadLetterTopic where unreadable result records go, synchronously
 * @param consumerGroup   the inbox's consumer group (also the Kafka group id)
 * @param poisonAttempts  times a result that fails on its own is tried before it is dead-lettered
 */
@ConfigurationProperties("toolonce.consumer")
public record ConsumerProperties(
        @DefaultValue("agent") String schema,
        @DefaultValue("toolonce.tool-results") String resultsTopic,
        @DefaultValue("toolonce.tool-results.dlq") String deadLetterTopic,
        @DefaultValue("toolonce-agent") String consumerGroup,
        @DefaultValue("3") int poisonAttempts) {

    public ConsumerProperties {
        if (poisonAttempts < 1) {
            throw new IllegalArgumentException("toolonce.consumer.poison-attempts must be >= 1 (is " + poisonAttempts + ")");
        }
    }
}
