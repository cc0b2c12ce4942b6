package dev.toolonce.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.InvalidArgumentsException;
import dev.toolonce.core.hash.RequestHasher;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Numbers the hash cannot keep faithfully are refused cheaply, whatever their exponent. */
class RequestHasherBoundsTest {
    private final RequestHasher hasher = new RequestHasher();
    private final CallScope scope = new CallScope("acme", "payments", "charge", "k");

    private ObjectNode args(String number) {
        return JsonNodeFactory.instance.objectNode().put("n", new BigDecimal(number));
    }

    @Test
    void anExponentInTheBillionsIsRefusedWithoutExpandingIt() {
        // 10^1000000000 as a BigInteger would take minutes and gigabytes; the check reads precision and scale only.
        assertThatThrownBy(() -> hasher.hash(scope, args("1e1000000000")))
                .isInstanceOf(InvalidArgumentsException.class).hasMessageContaining("arguments.n");
        assertThatThrownBy(() -> hasher.hash(scope, args("-1e-1000000000")))
                .isInstanceOf(InvalidArgumentsException.class).hasMessageContaining("too small");
        assertThatThrownBy(() -> hasher.hash(scope, args("1e17")))
                .isInstanceOf(InvalidArgumentsException.class).hasMessageContaining("2^53");
    }

    @Test
    void decimalsThatDifferOnlyBeyondDoublePrecisionAreRefusedSoTheyNeverShareAHash() {
        assertThatThrownBy(() -> hasher.hash(scope, args("0.1000000000000000000001")))
                .isInstanceOf(InvalidArgumentsException.class).hasMessageContaining("precision");
        assertThat(hasher.hash(scope, args("0.1"))).isNotEqualTo(hasher.hash(scope, args("0.2")));
        assertThat(hasher.hash(scope, args("0.1"))).isEqualTo(hasher.hash(scope, args("1e-1")));
        assertThat(hasher.hash(scope, args("1.5e-300")).value()).startsWith("sha256:");
    }
}
