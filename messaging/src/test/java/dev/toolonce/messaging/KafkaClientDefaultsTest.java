package dev.toolonce.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

class KafkaClientDefaultsTest {

    @Test
    void aClientTriesAReturnedBrokerWithin250Ms() {
        Map<String, Object> client = new HashMap<>(Map.of("bootstrap.servers", "127.0.0.1:9092"));

        assertThat(KafkaClientDefaults.withQuickReconnect(client))
                .containsEntry("reconnect.backoff.max.ms", 250)
                .containsEntry("retry.backoff.max.ms", 250)
                .containsEntry("bootstrap.servers", "127.0.0.1:9092");
    }

    @Test
    void theApplicationsOwnBackOffWins() {
        Map<String, Object> client = new HashMap<>(Map.of("reconnect.backoff.max.ms", "2000",
                "retry.backoff.max.ms", "3000"));

        assertThat(KafkaClientDefaults.withQuickReconnect(client))
                .containsEntry("reconnect.backoff.max.ms", "2000")
                .containsEntry("retry.backoff.max.ms", "3000");
    }

    @Test
    void aBaseBackOffOfTheApplicationsKeepsKafkasMaximum() {
        // a maximum under the application's own base would turn Kafka's exponential back-off off (with a warning)
        Map<String, Object> client = new HashMap<>(Map.of("reconnect.backoff.ms", "500", "retry.backoff.ms", "400"));

        assertThat(KafkaClientDefaults.withQuickReconnect(client))
                .doesNotContainKey("reconnect.backoff.max.ms")
                .doesNotContainKey("retry.backoff.max.ms");
    }

    @Test
    void propertiesGetTheSameDefaults() {
        Properties client = new Properties();

        assertThat(KafkaClientDefaults.withQuickReconnect(client))
                .containsEntry("reconnect.backoff.max.ms", 250)
                .containsEntry("retry.backoff.max.ms", 250);
    }
}
