package dev.toolonce.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class KafkaClientDefaultsTest {

    @Test
    void aClientTriesAReturnedBrokerWithin250Ms() {
        Map<String, Object> client = new HashMap<>(Map.of("bootstrap.servers", "127.0.0.1:9092"));

        assertThat(KafkaClientDefaults.withQuickReconnect(client))
                .containsEntry("reconnect.backoff.max.ms", 250)
                .containsEntry("bootstrap.servers", "127.0.0.1:9092");
    }

    @Test
    void theApplicationsOwnBackOffWins() {
        Map<String, Object> client = new HashMap<>(Map.of("reconnect.backoff.max.ms", "2000"));

        assertThat(KafkaClientDefaults.withQuickReconnect(client)).containsEntry("reconnect.backoff.max.ms", "2000");
    }
}
