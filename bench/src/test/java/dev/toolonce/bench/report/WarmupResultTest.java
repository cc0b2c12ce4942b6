package dev.toolonce.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WarmupResultTest {

    @Test
    void theUntimedBurstsHaveSettledWhenTheLastIsNoMoreThanFivePercentFasterThanTheOneBefore() {
        assertThat(WarmupResult.settled(List.of())).isFalse();
        assertThat(WarmupResult.settled(List.of(2000.0))).as("one burst says nothing yet").isFalse();
        assertThat(WarmupResult.settled(List.of(1400.0, 1750.0))).as("still rising by 25 %").isFalse();
        assertThat(WarmupResult.settled(List.of(1400.0, 1750.0, 1830.0))).as("4.6 % faster").isTrue();
        assertThat(WarmupResult.settled(List.of(2100.0, 1900.0))).as("slower is settled too").isTrue();
        assertThat(WarmupResult.settled(List.of(1000.0, 1051.0))).isFalse();
    }

    @Test
    void theWarmUpLineShowsEveryUntimedBurstAndWhetherTheySettled() {
        WarmupResult settled = new WarmupResult(30000, 250, 20, 0, 95.0, List.of(1380.2, 1749.2, 1831.9));
        WarmupResult rising = new WarmupResult(30000, 250, 20, 0, 140.0, List.of(900.0, 1000.0, 1200.0, 1400.0, 1600.0));

        assertThat(settled.settledBursts()).isTrue();
        assertThat(rising.settledBursts()).isFalse();
        assertThat(new WarmupResult(30000, 250, 20, 0, 60.0, List.of(900.0)).settledBursts())
                .as("a run without a burst has no settling bursts to judge").isTrue();
        assertThat(new TableReport(report(settled)).warmupLine()).isEqualTo("warmed first, untimed: 30000 intents straight"
                + " to Kafka, 250 calls/s for 20 s through the agent outbox (95.0 s); untimed bursts 1380, 1749, 1832 calls/s");
        assertThat(new TableReport(report(rising)).warmupLine()).endsWith("untimed bursts 900, 1000, 1200, 1400, 1600 calls/s"
                + " (not settled)");
    }

    private static BenchReport report(WarmupResult w) {
        return new BenchReport("r", "2026-12-07T06:00:00Z", "", 2, w, null, null, null, null, null);
    }
}
