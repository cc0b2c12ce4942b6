package dev.toolonce.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.Compensation;
import dev.toolonce.core.call.InvalidArgumentsException;
import dev.toolonce.core.hash.ProviderKey;
import org.junit.jupiter.api.Test;

class CompensationTest {
    private final CallScope charge = new CallScope("acme", "payments", "charge", "order-1:charge");

    @Test
    void theCompensationScopeIsDerivedFromTheOriginalAndBack() {
        CallScope c = Compensation.of(charge);
        assertThat(c.recordKey()).isEqualTo("acme/payments/charge.compensate/order-1:charge");
        assertThat(Compensation.isCompensation(c)).isTrue();
        assertThat(Compensation.isCompensation(charge)).isFalse();
        assertThat(Compensation.originalOf(c)).isEqualTo(charge);
    }

    @Test
    void theCompensationProviderKeyIsTheDerivedScopesAndDiffersFromAUserKeyEndingInTheOldSuffix() {
        assertThat(ProviderKey.compensationOf(charge)).isEqualTo(ProviderKey.of(Compensation.of(charge)));
        // The former derivation (scope text + "#compensate") equalled the key of a user call whose key ended so.
        CallScope lookalike = new CallScope("acme", "payments", "charge", "order-1:charge#compensate");
        assertThat(ProviderKey.compensationOf(charge)).isNotEqualTo(ProviderKey.of(lookalike));
    }

    @Test
    void aCompensationIsNotCompensatedAndOverlongOperationsAreRefused() {
        assertThatThrownBy(() -> Compensation.of(Compensation.of(charge)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not compensated");
        assertThatThrownBy(() -> Compensation.originalOf(charge)).isInstanceOf(IllegalArgumentException.class);
        CallScope longOp = new CallScope("acme", "payments", "o".repeat(60), "k");
        assertThatThrownBy(() -> Compensation.of(longOp)).isInstanceOf(InvalidArgumentsException.class)
                .hasMessageStartingWith("operation");
        assertThat(Compensation.isCompensation(".compensate")).isFalse();
    }
}
