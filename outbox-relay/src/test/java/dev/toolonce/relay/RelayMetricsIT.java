package dev.toolonce.relay;

import static dev.toolonce.schemas.PrometheusText.samples;
import static dev.toolonce.schemas.PrometheusText.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.toolonce.relay.RelayHarness.Row;
import dev.toolonce.relay.RelayHarness.SourceArgs;
import dev.toolonce.schemas.PrometheusText.Sample;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestStack;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The relay's meters and health as an operator scrapes them (docs/operations.md §2): after rows were
 * relayed, {@code /actuator/prometheus} shows the commit→ack timer and the published counter moved,
 * and the replication slot's gauges for the source; readiness and {@code /ready} are up with the
 * slot's details; {@code /relay/stats} keeps its shape and its reset clears only its own window.
 */
class RelayMetricsIT {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String SCHEMA = "metricsit";

    @Test
    void relayedRowsMoveTheMetersAndTheSlotIsReportedHealthy() throws Exception {
        TestStack stack = TestStack.get();
        String db = stack.freshDatabase("relay_metrics");
        String slot = "relay_metrics_" + RelayHarness.unique();
        RelayHarness.createOutbox(db, SCHEMA, "relay_metrics_pub");
        String topic = stack.freshTopic("relay-metrics", 3);
        String dlq = stack.freshTopic("relay-metrics-dlq", 1);
        int port = ServiceProcess.freePort();
        List<SourceArgs> sources = List.of(new SourceArgs("metrics", db, slot, "relay_metrics_pub",
                SCHEMA + ".outbox_event"));
        ServiceProcess relay = RelayHarness.startRelay("relay-metrics", port, stack.kafkaBootstrap(), dlq, sources)
                .awaitHttpOk("http://127.0.0.1:" + port + "/ready", Duration.ofSeconds(120));
        try (TopicReader reader = new TopicReader(stack.kafkaBootstrap(), topic)) {
            List<Row> rows = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                rows.add(Row.of(topic, "k-" + i, "{\"n\":" + i + "}"));
            }
            RelayHarness.insert(db, SCHEMA, rows);
            reader.readUntilIds(RelayKillIT.idsOfRows(rows), Duration.ofSeconds(60));

            Map<String, String> source = Map.of("source", "metrics");
            // acknowledged rows are counted in the producer callback, which may run just after the consumer saw them
            await().atMost(Duration.ofSeconds(10)).until(
                    () -> sum(scrape(port), "toolonce_relay_published_total", source) >= rows.size());
            String scrape = scrape(port);
            System.out.println("[RelayMetricsIT] " + String.join("\n[RelayMetricsIT] ", scrape.lines()
                    .filter(l -> l.startsWith("toolonce_relay_") && !l.contains("_bucket")).toList()));
            assertThat(sum(scrape, "toolonce_relay_commit_to_ack_seconds_count", source)).isGreaterThanOrEqualTo(rows.size());
            assertThat(sum(scrape, "toolonce_relay_commit_to_ack_seconds_sum", source)).isPositive();
            assertThat(samples(scrape, "toolonce_relay_commit_to_ack_seconds_bucket", Map.of("source", "metrics", "le", "0.05")))
                    .as("the 50 ms SLO bucket").hasSize(1);
            assertThat(sum(scrape, "toolonce_relay_send_failures_total", source)).isZero();

            Map<String, String> theSlot = Map.of("source", "metrics", "slot", slot);
            assertThat(single(scrape, "toolonce_relay_slot_present", theSlot)).isEqualTo(1);
            assertThat(single(scrape, "toolonce_relay_slot_active", theSlot)).isEqualTo(1);
            assertThat(single(scrape, "toolonce_relay_slot_retained_wal_bytes", theSlot)).isNotNaN().isNotNegative();
            assertThat(single(scrape, "toolonce_relay_slot_confirmed_lag_bytes", theSlot)).isNotNaN().isNotNegative();

            JsonNode readiness = JSON.readTree(RelayHarness.get(port, "/actuator/health/readiness").body());
            assertThat(readiness.path("status").asString()).isEqualTo("UP");
            JsonNode slotDetails = readiness.path("components").path("replicationSlots").path("details").path("metrics");
            assertThat(slotDetails.path("slot").asString()).isEqualTo(slot);
            assertThat(slotDetails.path("present").asBoolean()).isTrue();
            assertThat(slotDetails.path("active").asBoolean()).isTrue();
            assertThat(slotDetails.has("retainedWalBytes")).isTrue();
            assertThat(readiness.path("components").propertyNames())
                    .contains("kafka", "sourceDatabases", "sourceEngines", "replicationSlots", "readinessState");
            assertThat(RelayHarness.get(port, "/actuator/health/liveness").statusCode()).isEqualTo(200);
            JsonNode ready = JSON.readTree(RelayHarness.get(port, "/ready").body());
            assertThat(ready.path("status").asString()).isEqualTo("ready");
            assertThat(ready.path("checks").path("replicationSlots").asBoolean()).isTrue();

            JsonNode stats = JSON.readTree(RelayHarness.stats(port));
            assertThat(stats.path("published").asLong()).isGreaterThanOrEqualTo(rows.size());
            assertThat(stats.path("latencyMs").path("count").asLong()).isGreaterThanOrEqualTo(rows.size());
            JsonNode reset = JSON.readTree(RelayHarness.post(port, "/relay/stats/reset").body());
            assertThat(reset.path("latencyMs").path("count").asLong()).isZero();
            assertThat(reset.path("published").asLong()).isEqualTo(stats.path("published").asLong());
            assertThat(sum(scrape(port), "toolonce_relay_commit_to_ack_seconds_count", source))
                    .as("the reset leaves the Micrometer timer alone").isGreaterThanOrEqualTo(rows.size());
        } finally {
            relay.stop();
            RelayHarness.dropSlots(db, slot);
        }
    }

    static String scrape(int port) throws Exception {
        var response = RelayHarness.get(port, "/actuator/prometheus");
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    static double single(String scrape, String name, Map<String, String> labels) {
        List<Sample> found = samples(scrape, name, labels);
        assertThat(found).as("%s%s", name, labels).hasSize(1);
        return found.get(0).value();
    }
}
