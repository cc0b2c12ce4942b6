package dev.toolonce.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.DryRun;
import dev.toolonce.core.hash.ProviderKey;
import org.junit.jupiter.api.Test;

class DryRunTest {

    @Test
    void aDryRunIsTheOperationWithTheSuffixAndAScopeOfItsOwn() {
        assertThat(DryRun.of("charge")).isEqualTo("charge.dry-run");
        assertThat(DryRun.isDryRun("charge.dry-run")).isTrue();
        assertThat(DryRun.isDryRun("charge")).isFalse();
        assertThat(DryRun.isDryRun(".dry-run")).isFalse();
        assertThat(DryRun.isDryRun(null)).isFalse();
        CallScope real = new CallScope("acme", "payments", "charge", "k");
        CallScope dry = new CallScope("acme", "payments", DryRun.of("charge"), "k");
        assertThat(ProviderKey.of(dry)).as("even under the same key").isNotEqualTo(ProviderKey.of(real));
    }

    @Test
    void neitherADryRunNorACompensationHasADryRun() {
        assertThatThrownBy(() -> DryRun.of("charge.dry-run")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DryRun.of("charge.compensate")).isInstanceOf(IllegalArgumentException.class);
    }
}
