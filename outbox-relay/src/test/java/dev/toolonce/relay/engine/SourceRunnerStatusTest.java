package dev.toolonce.relay.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

import dev.toolonce.relay.config.RelayProperties;
import dev.toolonce.relay.config.RelayProperties.Source;
import dev.toolonce.relay.health.ProbeReading;
import dev.toolonce.relay.slot.SlotReading;

/** A source's status takes its slot readiness and database reachability from the latest probe, every time. */
class SourceRunnerStatusTest {

    static final Instant NOW = Instant.parse("2026-12-02T06:00:00Z");
    final Source source = new Source("executor", "jdbc:postgresql://127.0.0.1:5432/db", null, null, "executor_slot",
            "pub", "s.outbox_event");
    final RelayProperties relay = new RelayProperties(List.of(source), "127.0.0.1:29092", Duration.ofMillis(10),
            Duration.ofMillis(20), 2048, Duration.ofSeconds(1), Duration.ofSeconds(5), "toolonce.relay.dlq",
            DataSize.ofMegabytes(1), Duration.ofMillis(500), Duration.ofSeconds(2), null);
    final SourceRunner runner = new SourceRunner(relay, source, null);

    static ProbeReading probe(boolean reachable, boolean present, String error) {
        return new ProbeReading(reachable, new SlotReading("executor", "executor_slot", present, present, "reserved",
                present ? 4096L : null, present ? 0L : null, NOW, error));
    }

    @Test
    void slotReadyIsWhatTheLatestProbeFoundNotWhatPreparationOnceFound() {
        assertThat(runner.status(probe(true, true, null)).slotReady()).isTrue();
        SourceStatus dropped = runner.status(probe(true, false, null));
        assertThat(dropped.slotReady()).isFalse();
        assertThat(dropped.databaseReachable()).isTrue();
        assertThat(runner.status(probe(true, true, null)).slotReady()).isTrue();
    }

    @Test
    void aFailedProbeMakesNeitherTheDatabaseNorTheSlotReady() {
        SourceStatus down = runner.status(probe(false, true, "SQLException: refused"));
        assertThat(down.databaseReachable()).isFalse();
        assertThat(down.slotReady()).isFalse();
    }
}
