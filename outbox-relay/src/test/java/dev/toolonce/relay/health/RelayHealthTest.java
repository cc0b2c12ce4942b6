package dev.toolonce.relay.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.toolonce.relay.config.RelayProperties.Source;
import dev.toolonce.relay.engine.SourceState;
import dev.toolonce.relay.engine.SourceStatus;
import dev.toolonce.relay.slot.SlotReading;

class RelayHealthTest {

    static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    static SourceStatus engine(String name, boolean running) {
        return new SourceStatus(name, name + "_slot", true, running, true,
                running ? SourceState.RUNNING : SourceState.BACKING_OFF, running ? null : "connection refused");
    }

    static SlotReading slot(String name, boolean present, boolean active, String walStatus, String error) {
        return new SlotReading(name, name + "_slot", present, active, walStatus, present ? 4096L : null,
                present ? 128L : null, NOW, error);
    }

    static Source source(String name) {
        return new Source(name, "jdbc:postgresql://127.0.0.1:5432/db", null, null, name + "_slot", "pub",
                "s.outbox_event");
    }

    @Test
    void enginesAreUpOnlyWhenEverySourceRunsAndNeverWithNone() {
        assertThat(RelayHealth.engines(List.of(engine("a", true), engine("b", true))).getStatus()).isEqualTo(Status.UP);
        Health oneDown = RelayHealth.engines(List.of(engine("a", true), engine("b", false)));
        assertThat(oneDown.getStatus()).isEqualTo(Status.DOWN);
        assertThat(oneDown.getDetails().get("b")).isEqualTo(
                Map.of("state", "BACKING_OFF", "running", false, "lastError", "connection refused"));
        assertThat(RelayHealth.engines(List.of()).getStatus()).isEqualTo(Status.DOWN);
    }

    @Test
    void aSourceOnStandbyWhileAnotherRelayStreamsItsSlotIsServed() {
        SourceStatus standby = new SourceStatus("b", "b_slot", true, false, true, SourceState.STANDBY, null);
        Health h = RelayHealth.engines(List.of(engine("a", true), standby));
        assertThat(h.getStatus()).isEqualTo(Status.UP);
        assertThat(h.getDetails().get("b")).isEqualTo(Map.of("state", "STANDBY", "running", false));
    }

    @Test
    void slotsAreUpOnlyWhenPresentActiveNotLostAndFreshlyChecked() {
        assertThat(RelayHealth.slots(List.of(slot("a", true, true, "reserved", null))).getStatus()).isEqualTo(Status.UP);
        assertThat(RelayHealth.slots(List.of(slot("a", true, false, "reserved", null))).getStatus())
                .isEqualTo(Status.DOWN);
        assertThat(RelayHealth.slots(List.of(slot("a", true, true, "lost", null))).getStatus()).isEqualTo(Status.DOWN);
        assertThat(RelayHealth.slots(List.of(slot("a", true, true, "reserved", "PSQLException: refused"))).getStatus())
                .isEqualTo(Status.DOWN);
        assertThat(RelayHealth.slots(List.of()).getStatus()).isEqualTo(Status.DOWN);
    }

    @Test
    void slotDetailsCarryTheLagAndSayWhatIsWrong() {
        Health up = RelayHealth.slots(List.of(slot("a", true, true, "reserved", null)));
        assertThat(up.getDetails().get("a")).isEqualTo(Map.of("slot", "a_slot", "present", true, "active", true,
                "walStatus", "reserved", "retainedWalBytes", 4096L, "confirmedLagBytes", 128L,
                "checkedAt", NOW.toString()));

        Health missing = RelayHealth.slots(List.of(slot("a", true, true, "reserved", null), slot("b", false, false, null, null)));
        assertThat(missing.getStatus()).isEqualTo(Status.DOWN);
        @SuppressWarnings("unchecked")
        Map<String, Object> b = (Map<String, Object>) missing.getDetails().get("b");
        assertThat(b).containsEntry("present", false).containsEntry("problem", "replication slot b_slot does not exist")
                .doesNotContainKeys("retainedWalBytes", "confirmedLagBytes");
    }

    @Test
    void databasesAreUpOnlyWhenEverySourceDatabaseAnswers() {
        List<Source> sources = List.of(source("a"), source("b"));
        assertThat(RelayHealth.databases(sources, Set.of("a", "b")::contains).getStatus()).isEqualTo(Status.UP);
        Health down = RelayHealth.databases(sources, Set.of("a")::contains);
        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
        assertThat(down.getDetails()).isEqualTo(Map.of("a", "reachable", "b", "UNREACHABLE"));
    }
}
