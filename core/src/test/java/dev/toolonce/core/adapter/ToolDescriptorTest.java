package dev.toolonce.core.adapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ToolDescriptorTest {
    private static final Duration S1 = Duration.ofSeconds(1);

    private static ToolDescriptor of(Set<Capability> caps, Duration window, Duration total, Duration lease) {
        return new ToolDescriptor("payments", Set.of("charge"), caps, window, S1, Duration.ofSeconds(5), total,
                lease, Duration.ofMillis(300));
    }

    @Test
    void retrySafetyComesOnlyFromNativeIdempotencyOrAUniqueReference() {
        assertThat(of(Set.of(Capability.NATIVE_IDEMPOTENCY), Duration.ofHours(24), Duration.ofSeconds(6),
                Duration.ofSeconds(60)).retrySafe()).isTrue();
        assertThat(of(Set.of(Capability.UNIQUE_REFERENCE, Capability.LOOKUP_BY_REFERENCE), null,
                Duration.ofSeconds(6), Duration.ofSeconds(60)).retrySafe()).isTrue();
        ToolDescriptor email = of(Set.of(Capability.IRREVERSIBLE, Capability.LOOKUP_BY_KEY), null,
                Duration.ofSeconds(6), Duration.ofSeconds(60));
        assertThat(email.retrySafe()).isFalse();
        assertThat(email.canLookUp()).isTrue();
    }

    @Test
    void capabilitiesAndOperationsAreCopied() {
        ToolDescriptor d = of(null, null, Duration.ofSeconds(6), Duration.ofSeconds(60));
        assertThat(d.capabilities()).isEmpty();
        assertThatThrownBy(() -> d.operations().add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void refusesInconsistentDescriptionsNamingToolAndField() {
        assertThatThrownBy(() -> of(Set.of(Capability.NATIVE_IDEMPOTENCY), null, Duration.ofSeconds(6),
                Duration.ofSeconds(60))).hasMessage("tool 'payments': idempotency-window is required with "
                + "NATIVE_IDEMPOTENCY and only with it");
        assertThatThrownBy(() -> of(Set.of(), Duration.ofHours(1), Duration.ofSeconds(6), Duration.ofSeconds(60)))
                .hasMessageContaining("idempotency-window");
        assertThatThrownBy(() -> of(Set.of(Capability.COMPENSATION, Capability.IRREVERSIBLE), null,
                Duration.ofSeconds(6), Duration.ofSeconds(60))).hasMessageContaining("tool 'payments': capabilities");
        assertThatThrownBy(() -> of(Set.of(), null, Duration.ofSeconds(4), Duration.ofSeconds(60)))
                .hasMessage("tool 'payments': total-timeout PT4S is shorter than read-timeout PT5S");
        assertThatThrownBy(() -> of(Set.of(), null, Duration.ofSeconds(6), Duration.ofSeconds(6)))
                .hasMessage("tool 'payments': lease PT6S is not longer than total-timeout PT6S");
        assertThatThrownBy(() -> new ToolDescriptor("payments", Set.of(), Set.of(), null, S1, S1, S1,
                Duration.ofSeconds(60), S1)).hasMessageContaining("tool 'payments': operations");
        assertThatThrownBy(() -> new ToolDescriptor("pay ments", Set.of("charge"), Set.of(), null, S1, S1, S1,
                Duration.ofSeconds(60), S1)).hasMessageContaining("tool name");
        assertThatThrownBy(() -> new ToolDescriptor("payments", Set.of("charge"), Set.of(), null, Duration.ZERO,
                S1, S1, Duration.ofSeconds(60), S1)).hasMessageContaining("tool 'payments': connect-timeout");
        assertThatThrownBy(() -> new ToolDescriptor("payments", Set.of("charge"), Set.of(), null, S1, S1, S1,
                Duration.ofSeconds(60), Duration.ofSeconds(-1))).hasMessageContaining("settle-delay");
    }

    @Test
    void capabilityNamesParseLeniently() {
        assertThat(Capability.parse("native-idempotency")).isEqualTo(Capability.NATIVE_IDEMPOTENCY);
        assertThat(Capability.parse("LOOKUP_BY_KEY")).isEqualTo(Capability.LOOKUP_BY_KEY);
        assertThatThrownBy(() -> Capability.parse("TELEPATHY")).hasMessageContaining("unknown capability 'TELEPATHY'")
                .hasMessageContaining("NATIVE_IDEMPOTENCY");
    }
}
