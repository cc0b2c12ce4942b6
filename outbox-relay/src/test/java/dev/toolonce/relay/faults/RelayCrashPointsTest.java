package dev.toolonce.relay.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The settings of the relay's crash points; the halt itself is exercised by the chaos experiment's relay faults. */
class RelayCrashPointsTest {

    @Test
    void aPointNamedWithoutEnablingFaultInjectionRefusesToStart() {
        assertThatThrownBy(() -> new RelayCrashPoints(false, RelayCrashPoints.AFTER_SEND))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("toolonce.fault-injection.enabled is not true");
    }

    @Test
    void anUnknownPointRefusesToStartAndNamesTheKnownOnes() {
        assertThatThrownBy(() -> new RelayCrashPoints(true, "before-send"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(RelayCrashPoints.AFTER_READ).hasMessageContaining(RelayCrashPoints.AFTER_SEND);
    }

    @Test
    void offAndEnabledWithoutAPointHaltNothing() {
        RelayCrashPoints.off().reach(RelayCrashPoints.AFTER_READ);
        RelayCrashPoints enabled = new RelayCrashPoints(true, "  ");
        enabled.reach(RelayCrashPoints.AFTER_SEND);
        assertThat(enabled.crashAt()).isEmpty();
    }

    @Test
    void anArmedPointIsTrimmedAndKept() {
        assertThat(new RelayCrashPoints(true, " relay-after-read ").crashAt()).isEqualTo(RelayCrashPoints.AFTER_READ);
    }
}
