package dev.toolonce.relay.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.toolonce.relay.stats.RelayStats;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

class RelayProbesTest {

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-02T06:00:00Z"), ZoneOffset.UTC);

    final MeterRegistry registry = new SimpleMeterRegistry();
    final RelayStats stats = new RelayStats(registry);

    static SourceProbe healthy(String name) {
        return new SourceProbe(name, name + "_slot", new SourceProbeTest.StubOpener().with(new SourceProbeTest.StubSession()),
                CLOCK);
    }

    static SourceProbe broken(String name) {
        return new SourceProbe(name, name + "_slot", () -> {
            throw new AssertionError("a bug in the probe");
        }, CLOCK);
    }

    double failures(String source, String step) {
        var c = registry.find(RelayStats.WATCHDOG_FAILURES).tag("source", source).tag("step", step).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void aProbeThatThrowsAnythingIsLoggedAndCountedAndTheOthersStillRun() {
        RelayProbes probes = new RelayProbes(List.of(broken("a"), healthy("b")), () -> true, registry, stats);

        assertThatCode(probes::probeAll).doesNotThrowAnyException();
        assertThatCode(probes::probeAll).doesNotThrowAnyException();

        assertThat(failures("a", RelayStats.STEP_PROBE)).isEqualTo(2);
        assertThat(probes.databaseReachable("a")).isFalse();
        assertThat(probes.databaseReachable("b")).isTrue();
        assertThat(probes.reading("b").slotReady()).isTrue();
        assertThat(probes.kafkaReachable()).isTrue();
    }

    @Test
    void aKafkaProbeThatThrowsCountsAsUnreachableAndIsCounted() {
        RelayProbes probes = new RelayProbes(List.of(healthy("a")), () -> {
            throw new IllegalStateException("admin client closed");
        }, registry, stats);
        probes.probeAll();
        assertThat(probes.kafkaReachable()).isFalse();
        assertThat(failures(RelayStats.ALL_SOURCES, RelayStats.STEP_KAFKA)).isEqualTo(1);
        assertThat(probes.databaseReachable("a")).isTrue();
    }

    @Test
    void slotGaugesKeepTheirNamesAndFollowTheLatestProbe() {
        RelayProbes probes = new RelayProbes(List.of(healthy("a")), () -> true, registry, stats);
        assertThat(gauge("toolonce.relay.slot.present")).isNaN();
        probes.probeAll();
        assertThat(gauge("toolonce.relay.slot.present")).isEqualTo(1);
        assertThat(gauge("toolonce.relay.slot.active")).isEqualTo(1);
        assertThat(gauge("toolonce.relay.slot.retained_wal")).isEqualTo(4096);
        assertThat(gauge("toolonce.relay.slot.confirmed_lag")).isEqualTo(128);
        assertThat(probes.slotReadings()).extracting(r -> r.source()).containsExactly("a");
    }

    @Test
    void anUnknownSourceIsNeitherReachableNorReady() {
        RelayProbes probes = new RelayProbes(List.of(healthy("a")), () -> true, registry, stats);
        probes.probeAll();
        assertThat(probes.reading("nope").databaseReachable()).isFalse();
        assertThat(probes.reading("nope").slotReady()).isFalse();
    }

    double gauge(String name) {
        return registry.get(name).tag("source", "a").tag("slot", "a_slot").gauge().value();
    }
}
