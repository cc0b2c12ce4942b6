package dev.toolonce.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.core.retry.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    private final RetryPolicy policy = new RetryPolicy(Duration.ofMillis(100), Duration.ofSeconds(2), 4);

    @Test
    void backoffDoublesUpToTheCapWithFullJitter() {
        assertThat(policy.delay(1, null, () -> 0.999)).isEqualTo(Duration.ofMillis(99));
        assertThat(policy.delay(3, null, () -> 0.5)).isEqualTo(Duration.ofMillis(200));
        assertThat(policy.delay(10, null, () -> 0.5)).isEqualTo(Duration.ofSeconds(1));
        assertThat(policy.delay(3, null, () -> 0.0)).isEqualTo(Duration.ZERO);
    }

    @Test
    void retryAfterIsAFloor() {
        assertThat(policy.delay(1, Duration.ofSeconds(3), () -> 0.5)).isEqualTo(Duration.ofSeconds(3));
        assertThat(policy.delay(10, Duration.ofMillis(10), () -> 0.5)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void attemptsAreBounded() {
        assertThat(policy.allowsAnother(3)).isTrue();
        assertThat(policy.allowsAnother(4)).isFalse();
        assertThatThrownBy(() -> new RetryPolicy(Duration.ofSeconds(2), Duration.ofSeconds(1), 3))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
