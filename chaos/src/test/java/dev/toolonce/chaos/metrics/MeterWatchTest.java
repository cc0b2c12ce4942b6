package dev.toolonce.chaos.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class MeterWatchTest {

    @Test
    void parsesSamplesWithLabelsHoldingSpacesAndSkipsComments() {
        Map<String, Double> samples = PrometheusText.parse("""
                # HELP toolonce_intake_total Intents by disposition
                # TYPE toolonce_intake_total counter
                toolonce_intake_total{disposition="PLANNED"} 42.0
                toolonce_reviews_total{action="arrived in review"} 3.0 1700000000000
                jvm_threads_live_threads 31.0
                not a sample
                """);

        assertThat(samples).containsExactlyInAnyOrderEntriesOf(Map.of(
                "toolonce_intake_total{disposition=\"PLANNED\"}", 42.0,
                "toolonce_reviews_total{action=\"arrived in review\"}", 3.0,
                "jvm_threads_live_threads", 31.0));
        assertThat(PrometheusText.name("toolonce_intake_total{disposition=\"PLANNED\"}")).isEqualTo("toolonce_intake_total");
    }

    @Test
    void onlyToolOnceCountersAndTimerCountsAreCompared() {
        assertThat(MeterWatch.monotonic("toolonce_intake_total{a=\"b\"}")).isTrue();
        assertThat(MeterWatch.monotonic("toolonce_tool_call_seconds_count{tool=\"counter\"}")).isTrue();
        assertThat(MeterWatch.monotonic("toolonce_calls{state=\"PLANNED\"}")).isFalse();
        assertThat(MeterWatch.monotonic("toolonce_tool_call_seconds_sum")).isFalse();
        assertThat(MeterWatch.monotonic("jvm_gc_pause_seconds_count")).isFalse();
    }

    @Test
    void growthIsSummedOverServicesAndARestartCountsFromZero() {
        Map<String, Map<String, Double>> before = Map.of(
                "executor-a", Map.of("toolonce_intake_total", 10.0, "toolonce_reconciliations_total", 2.0),
                "executor-b", Map.of("toolonce_intake_total", 50.0));
        Map<String, Map<String, Double>> after = Map.of(
                "executor-a", Map.of("toolonce_intake_total", 15.0, "toolonce_reconciliations_total", 2.0),
                "executor-b", Map.of("toolonce_intake_total", 4.0), // restarted: counted 4 since
                "relay", Map.of("toolonce_relay_published_total", 7.0)); // did not answer before

        assertThat(MeterWatch.moved(before, after)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "toolonce_intake_total", 9.0,
                "toolonce_relay_published_total", 7.0));
    }
}
