package dev.toolonce.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.retry.RetryBudget;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class RetryBudgetTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void retriesWithinTheBudgetKeepTheirDelayAndTheRestWaitForTheNextWindow() {
        RetryBudget budget = new RetryBudget(3, Duration.ofSeconds(10), Clock.fixed(T0, ZoneOffset.UTC));
        assertThat(budget.reserve("payments", Duration.ofMillis(100))).isEqualTo(Duration.ofMillis(100));
        assertThat(budget.reserve("payments", Duration.ofMillis(200))).isEqualTo(Duration.ofMillis(200));
        assertThat(budget.reserve("payments", Duration.ZERO)).isEqualTo(Duration.ofMillis(100));
        // Budget of the window starting at +100 ms is spent: the fourth waits for the next window.
        assertThat(budget.reserve("payments", Duration.ZERO)).isEqualTo(Duration.ofMillis(10_100));
        assertThat(budget.reserve("tickets", Duration.ZERO)).as("budgets are per tool").isEqualTo(Duration.ZERO);
    }

    @Test
    void aLaterWindowStartsAfresh() {
        MutableClock clock = new MutableClock(T0);
        RetryBudget budget = new RetryBudget(1, Duration.ofSeconds(1), clock);
        assertThat(budget.reserve("email", Duration.ZERO)).isEqualTo(Duration.ZERO);
        assertThat(budget.reserve("email", Duration.ZERO)).isEqualTo(Duration.ofSeconds(1));
        clock.now = T0.plusSeconds(5);
        assertThat(budget.reserve("email", Duration.ZERO)).isEqualTo(Duration.ZERO);
    }

    private static final class MutableClock extends Clock {
        Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
