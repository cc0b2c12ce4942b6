package dev.toolonce.relay.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class RestartBackoffTest {

    static final Duration SHORT = Duration.ofMillis(10);

    @Test
    void doublesFromMinAndNeverExceedsTheCap() {
        RestartBackoff b = new RestartBackoff(Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofMinutes(1));
        assertThat(b.after(SHORT)).isEqualTo(Duration.ofMillis(500));
        assertThat(b.after(SHORT)).isEqualTo(Duration.ofSeconds(1));
        assertThat(b.after(SHORT)).isEqualTo(Duration.ofSeconds(2));
        for (int i = 0; i < 50; i++) {
            assertThat(b.after(SHORT)).isEqualTo(Duration.ofSeconds(2));
        }
    }

    @Test
    void aHealthyRunStartsOverAtMin() {
        RestartBackoff b = new RestartBackoff(Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofMinutes(1));
        b.after(SHORT);
        b.after(SHORT);
        b.after(SHORT);
        assertThat(b.after(Duration.ofMinutes(2))).isEqualTo(Duration.ofMillis(500));
        assertThat(b.after(SHORT)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void refusesAMinAboveTheMax() {
        assertThatThrownBy(() -> new RestartBackoff(Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
