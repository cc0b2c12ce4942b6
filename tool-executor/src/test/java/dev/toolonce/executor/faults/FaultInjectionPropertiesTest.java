package dev.toolonce.executor.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** Fault points are armed only when fault injection is enabled explicitly. */
class FaultInjectionPropertiesTest {

    @Test
    void byDefaultNoPointIsArmed() {
        FaultPoints points = FaultPoints.off();
        for (String point : FaultPoints.NAMES) {
            assertThat(points.crashesAt(point)).as(point).isFalse();
            assertThat(points.pausesAt(point)).as(point).isFalse();
        }
    }

    @Test
    void aPointNamedWithoutEnablingFaultInjectionRefusesToStart() {
        assertThatThrownBy(() -> new FaultInjectionProperties(false, FaultPoints.AFTER_RECORD, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("toolonce.fault-injection.crash-at")
                .hasMessageContaining("toolonce.fault-injection.enabled");
        assertThatThrownBy(() -> new FaultInjectionProperties(false, null, FaultPoints.BEFORE_SEND, Duration.ofSeconds(1)))
                .hasMessageContaining("toolonce.fault-injection.pause-at");
    }

    @Test
    void anUnknownPointIsRefusedByName() {
        assertThatThrownBy(() -> new FaultInjectionProperties(true, "after-lunch", null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("crash-at").hasMessageContaining("after-lunch")
                .hasMessageContaining(FaultPoints.AFTER_RECORD);
    }

    @Test
    void enabledArmsExactlyTheNamedPoints() {
        FaultPoints points = new FaultPoints(new FaultInjectionProperties(true, FaultPoints.AFTER_RECORD,
                FaultPoints.BEFORE_SEND, Duration.ZERO));
        assertThat(points.crashesAt(FaultPoints.AFTER_RECORD)).isTrue();
        assertThat(points.crashesAt(FaultPoints.AFTER_TOOL_BEFORE_RECORD)).isFalse();
        assertThat(points.pausesAt(FaultPoints.BEFORE_SEND)).isTrue();
        assertThat(points.pausesAt(FaultPoints.AFTER_CHECK)).isFalse();
    }

    @Test
    void enabledWithoutPointsArmsNothingAndReachingAPointReturns() {
        FaultPoints points = new FaultPoints(new FaultInjectionProperties(true, " ", null, null));
        FaultPoints.NAMES.forEach(points::reach);
        assertThat(FaultPoints.NAMES).noneMatch(p -> points.crashesAt(p) || points.pausesAt(p));
    }

    @Test
    void theKeysTheFaultTestsPassBindToArmedPoints() {
        Binder binder = new Binder(new MapConfigurationPropertySource(Map.of(
                "toolonce.fault-injection.enabled", "true",
                "toolonce.fault-injection.pause-at", "before-send",
                "toolonce.fault-injection.pause-for", "15s")));

        FaultInjectionProperties bound = binder.bindOrCreate("toolonce.fault-injection", FaultInjectionProperties.class);

        assertThat(bound.pauseFor()).isEqualTo(Duration.ofSeconds(15));
        assertThat(new FaultPoints(bound).pausesAt(FaultPoints.BEFORE_SEND)).isTrue();
        assertThat(new Binder(new MapConfigurationPropertySource(Map.of()))
                .bindOrCreate("toolonce.fault-injection", FaultInjectionProperties.class).enabled())
                .as("off when nothing is set").isFalse();
    }
}
