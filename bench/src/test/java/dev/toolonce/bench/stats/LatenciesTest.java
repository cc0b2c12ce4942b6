package dev.toolonce.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LatenciesTest {
    @Test
    void percentilesAreNearestRankOfTheValuesInMilliseconds() {
        Latencies l = new Latencies();
        for (int i = 100; i >= 1; i--) {
            l.add(i * 1000L); // 1..100 ms, added out of order
        }
        assertThat(l.summary()).isEqualTo(new LatencySummary(100, 50, 95, 99, 100));
    }

    @Test
    void negativeValuesCountAsZeroAndAnEmptyRunIsAllZero() {
        Latencies l = new Latencies();
        assertThat(l.summary()).isEqualTo(new LatencySummary(0, 0, 0, 0, 0));
        assertThat(l.cdf(10)).isEmpty();
        l.add(-5);
        assertThat(l.summary().max()).isZero();
    }

    @Test
    void cdfEndsAtTheMaximum() {
        Latencies l = new Latencies();
        for (int i = 1; i <= 2000; i++) {
            l.add(i);
        }
        assertThat(l.cdf(4)).hasSize(4).last().satisfies(p -> assertThat(p).containsExactly(2.0, 1.0));
    }
}
