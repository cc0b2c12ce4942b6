package dev.toolonce.relay.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.relay.config.RelayProperties;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/**
 * Issue 19, point 4: the relay's clients were a hard-coded map, so it could not reach a broker that requires SASL or
 * TLS. The security settings of {@code toolonce.relay.kafka-properties} now reach both clients, and the settings the
 * relay's guarantee rests on cannot be changed there.
 */
class KafkaClientsTest {
    private static final Map<String, String> SASL_SSL = Map.of("security.protocol", "SASL_SSL",
            "sasl.mechanism", "SCRAM-SHA-512",
            "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"relay\" "
                    + "password=\"secret\";",
            "ssl.truststore.location", "/etc/toolonce/kafka-ca.p12");

    private static RelayProperties relay(Map<String, String> kafka) {
        return new RelayProperties(List.of(new RelayProperties.Source("agent", "jdbc:postgresql://127.0.0.1:25432/toolonce", null,
                null, "a_slot", "toolonce_agent_outbox", "agent.outbox_event")), "broker:9093", Duration.ofMillis(2), Duration.ofMillis(20),
                2048, Duration.ofSeconds(1), Duration.ofSeconds(5), "toolonce.relay.dlq", DataSize.ofMegabytes(1),
                Duration.ofMillis(500), Duration.ofSeconds(2), kafka);
    }

    @Test
    void theSecuritySettingsReachTheProducerAndTheAdminClientBesideTheRelaysOwn() {
        RelayProperties p = relay(SASL_SSL);

        assertThat(KafkaClients.producerConfig(p)).containsAllEntriesOf(SASL_SSL).containsEntry("acks", "all")
                .containsEntry("enable.idempotence", true).containsEntry("bootstrap.servers", "broker:9093");
        assertThat(KafkaClients.adminConfig(p)).containsAllEntriesOf(SASL_SSL)
                .containsEntry("bootstrap.servers", "broker:9093");
        assertThat(KafkaClients.producerConfig(relay(null))).doesNotContainKey("security.protocol");
    }

    @Test
    void whatTheGuaranteeRestsOnCannotBeChangedThere() {
        assertThatThrownBy(() -> relay(Map.of("acks", "1"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("toolonce.relay.kafka-properties.acks");
        assertThatThrownBy(() -> relay(Map.of("enable.idempotence", "false")))
                .hasMessageContaining("kafka-properties.enable.idempotence");
        assertThatThrownBy(() -> relay(Map.of("bootstrap.servers", "elsewhere:9092")))
                .hasMessageContaining("toolonce.relay.kafka-bootstrap");
    }

    @Test
    void bothClientsTryAReturnedBrokerAgainWithinAQuarterSecondUnlessToldOtherwise() {
        for (Map<String, Object> config : List.of(KafkaClients.producerConfig(relay(null)),
                KafkaClients.adminConfig(relay(null)))) {
            assertThat(config).containsEntry("reconnect.backoff.max.ms", 250).containsEntry("retry.backoff.max.ms", 250);
        }

        RelayProperties tuned = relay(Map.of("reconnect.backoff.max.ms", "2000", "retry.backoff.max.ms", "3000"));
        for (Map<String, Object> config : List.of(KafkaClients.producerConfig(tuned), KafkaClients.adminConfig(tuned))) {
            assertThat(config).containsEntry("reconnect.backoff.max.ms", "2000")
                    .containsEntry("retry.backoff.max.ms", "3000");
        }
    }
}
