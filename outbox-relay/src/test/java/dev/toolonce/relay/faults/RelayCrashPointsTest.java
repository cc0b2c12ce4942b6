package dev.toolonce.relay.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The settings of the relay's crash points; the halt itself is exercised by the chaos experiment's relay faults. */
class RelayCrashPointsTest {

    @Test
    void aPointNamedWithoutEnablingFaultInjectionRefusesToStart() {
        assertThatThrownBy(() -> new RelayCrashPoints(false, RelayCrashPoints.AFTER_SEND, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("toolonce.fault-injection.enabled is not true");
    }

    @Test
    void anUnknownPointRefusesToStartAndNamesTheKnownOnes() {
        assertThatThrownBy(() -> new RelayCrashPoints(true, "before-send", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(RelayCrashPoints.AFTER_READ).hasMessageContaining(RelayCrashPoints.AFTER_SEND);
    }

    @Test
    void offAndEnabledWithoutAPointHaltNothing() {
        RelayCrashPoints.off().reach(RelayCrashPoints.AFTER_READ);
        RelayCrashPoints enabled = new RelayCrashPoints(true, "  ", null);
        enabled.reach(RelayCrashPoints.AFTER_SEND);
        assertThat(enabled.crashAt()).isEmpty();
    }

    @Test
    void anArmedPointIsTrimmedAndKept() {
        assertThat(new RelayCrashPoints(true, " relay-after-read ", null).crashAt()).isEqualTo(RelayCrashPoints.AFTER_READ);
    }

    @Test
    void anArmFileWithoutEnablingFaultInjectionRefusesToStart(@TempDir Path dir) {
        assertThatThrownBy(() -> new RelayCrashPoints(false, null, dir.resolve("arm")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("arm-file");
    }

    @Test
    void aPointWithAnArmFileIsInertUntilTheFileExists(@TempDir Path dir) throws IOException {
        RelayCrashPoints armed = new RelayCrashPoints(true, RelayCrashPoints.AFTER_READ, dir.resolve("arm"));
        assertThat(armed.haltsAt(RelayCrashPoints.AFTER_READ)).isFalse();
        armed.reach(RelayCrashPoints.AFTER_READ); // returns: a halt would end this test JVM with 137
        Files.createFile(dir.resolve("arm"));
        assertThat(armed.haltsAt(RelayCrashPoints.AFTER_READ)).isTrue();
        assertThat(armed.haltsAt(RelayCrashPoints.AFTER_SEND)).isFalse();
        assertThat(new RelayCrashPoints(true, RelayCrashPoints.AFTER_SEND, null).haltsAt(RelayCrashPoints.AFTER_SEND))
                .isTrue();
    }
}
