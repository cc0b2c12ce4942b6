package dev.toolonce.relay.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void emptyHistogramReportsZeros() {
        assertThat(new LatencyHistogram().snapshot()).isEqualTo(new LatencyHistogram.Snapshot(0, 0, 0, 0, 0));
    }

    @Test
    void percentilesOfAUniformSpreadAreWithinTheBucketError() {
        LatencyHistogram h = new LatencyHistogram();
        for (int ms = 1; ms <= 1000; ms++) {
            h.record(ms * 1000L);
        }
        LatencyHistogram.Snapshot s = h.snapshot();
        assertThat(s.count()).isEqualTo(1000);
        assertThat((double) s.p50()).isCloseTo(500_000, within(500_000 * 0.032));
        assertThat((double) s.p95()).isCloseTo(950_000, within(950_000 * 0.032));
        assertThat((double) s.p99()).isCloseTo(990_000, within(990_000 * 0.032));
        assertThat(s.max()).isEqualTo(1_000_000);
    }

    @Test
    void smallValuesAreExactAndOutliersShowInTheTail() {
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 0; i < 98; i++) {
            h.record(10);
        }
        h.record(5_000_000);
        h.record(9_000_000);
        LatencyHistogram.Snapshot s = h.snapshot();
        assertThat(s.p50()).isEqualTo(10);
        assertThat(s.p95()).isEqualTo(10);
        assertThat((double) s.p99()).isCloseTo(5_000_000, within(5_000_000 * 0.032));
        assertThat(s.max()).isEqualTo(9_000_000);
    }

    @Test
    void percentileNeverExceedsTheMaximum() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(1_000_001);
        assertThat(h.snapshot().p99()).isEqualTo(1_000_001);
    }

    @Test
    void negativeAndHugeValuesAreClamped() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(-5);
        h.record(Long.MAX_VALUE);
        assertThat(h.snapshot().p50()).isZero();
        assertThat(h.snapshot().max()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void bucketsTileTheRangeWithoutGaps() {
        for (int i = 1; i < 1183; i++) {
            assertThat(LatencyHistogram.lowerBound(i)).isEqualTo(LatencyHistogram.upperBound(i - 1) + 1);
            assertThat(LatencyHistogram.index(LatencyHistogram.lowerBound(i))).isEqualTo(i);
            assertThat(LatencyHistogram.index(LatencyHistogram.upperBound(i))).isEqualTo(i);
        }
    }

    @Test
    void resetForgetsEverything() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(42);
        h.reset();
        assertThat(h.snapshot().count()).isZero();
        assertThat(h.snapshot().max()).isZero();
    }
}
