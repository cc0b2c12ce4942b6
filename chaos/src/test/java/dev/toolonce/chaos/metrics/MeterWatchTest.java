package dev.toolonce.chaos.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class MeterWatchTest {

    @Test
    void onlyToolOnceCountersAndTimerCountsAreCompared() {
        assertThat(MeterWatch.monotonic("toolonce_intake_total")).isTrue();
        assertThat(MeterWatch.monotonic("toolonce_tool_call_seconds_count")).isTrue();
        assertThat(MeterWatch.monotonic("toolonce_calls")).isFalse();
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
