package dev.toolonce.relay.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

class RelayStatsTest {

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final RelayStats stats = new RelayStats(registry);

    @Test
    void everyWatchdogStepIsAtZeroBeforeItFirstFailsSoThatAnAlertSeesTheFirstFailure() {
        assertThat(registry.find(RelayStats.WATCHDOG_FAILURES).counters()).isEmpty();
        stats.watching(java.util.List.of("agent", "executor"));

        assertThat(registry.find(RelayStats.WATCHDOG_FAILURES).counters())
                .extracting(c -> c.getId().getTag("source") + "/" + c.getId().getTag("step") + "=" + c.count())
                .containsExactlyInAnyOrder("*/probe=0.0", "*/kafka=0.0", "agent/probe=0.0", "agent/progress=0.0",
                        "executor/probe=0.0", "executor/progress=0.0");
        stats.watchdogFailed("agent", RelayStats.STEP_PROGRESS);
        assertThat(registry.get(RelayStats.WATCHDOG_FAILURES).tags("source", "agent", "step", "progress").counter()
                .count()).isEqualTo(1);
    }

    @Test
    void aPublishedRowCountsAndIsTimedByItsSource() {
        stats.source("agent").published(3_000);
        stats.source("agent").published(-50); // the clock stepped back: counts as zero
        stats.source("executor").publishedUnmeasured();

        assertThat(registry.get(RelayStats.PUBLISHED).tag("source", "agent").counter().count()).isEqualTo(2);
        assertThat(registry.get(RelayStats.PUBLISHED).tag("source", "executor").counter().count()).isEqualTo(1);
        var timer = registry.get(RelayStats.COMMIT_TO_ACK).tag("source", "agent").timer();
        assertThat(timer.count()).isEqualTo(2);
        assertThat(timer.totalTime(TimeUnit.MICROSECONDS)).isEqualTo(3_000);
        assertThat(registry.find(RelayStats.COMMIT_TO_ACK).tag("source", "executor").timer().count()).isZero();
        assertThat(stats.publishedCount()).isEqualTo(3);
        assertThat(stats.latency().count()).isEqualTo(2);
        assertThat(stats.latency().max()).isEqualTo(3_000);
    }

    @Test
    void deadLettersAreCountedByCodeAndSummedForTheStatsView() {
        stats.source("agent").deadLettered("RECORD_TOO_LARGE");
        stats.source("agent").deadLettered("UNKNOWN_TOPIC");
        stats.source("executor").deadLettered("UNKNOWN_TOPIC");
        stats.source("agent").sendFailed();

        assertThat(registry.get(RelayStats.DEAD_LETTERED).tags("source", "agent", "code", "UNKNOWN_TOPIC").counter()
                .count()).isEqualTo(1);
        assertThat(stats.deadLetteredCount()).isEqualTo(3);
        assertThat(registry.get(RelayStats.SEND_FAILURES).tag("source", "agent").counter().count()).isEqualTo(1);
    }

    @Test
    void resetClearsOnlyTheStatsWindowNeverTheMeters() {
        stats.source("agent").published(1_000);
        stats.resetLatency();
        stats.source("agent").published(7_000);

        assertThat(stats.latency().count()).isEqualTo(1);
        assertThat(stats.latency().max()).isEqualTo(7_000);
        assertThat(stats.publishedCount()).isEqualTo(2);
        assertThat(registry.get(RelayStats.COMMIT_TO_ACK).timer().count()).isEqualTo(2);
    }
}
