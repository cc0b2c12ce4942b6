package dev.toolonce.executor.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** RFC 9110 Retry-After within bounds. */
class RetryAfterTest {
    private static final Duration CAP = Duration.ofMinutes(5);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-01-01T12:00:00Z"), ZoneOffset.UTC);

    @Test
    void secondsAreHonouredUpToTheCap() {
        assertThat(RetryAfter.parse("0", CAP, CLOCK)).isEqualTo(Duration.ZERO);
        assertThat(RetryAfter.parse(" 120 ", CAP, CLOCK)).isEqualTo(Duration.ofSeconds(120));
        assertThat(RetryAfter.parse("300", CAP, CLOCK)).isEqualTo(CAP);
        assertThat(RetryAfter.parse("31536000", CAP, CLOCK)).isEqualTo(CAP);
        assertThat(RetryAfter.parse("9".repeat(40), CAP, CLOCK)).isEqualTo(CAP);
    }

    @Test
    void datesCountFromNowAndThePastMeansNoWait() {
        assertThat(RetryAfter.parse("Wed, 01 Jan 2025 12:01:00 GMT", CAP, CLOCK)).isEqualTo(Duration.ofMinutes(1));
        assertThat(RetryAfter.parse("Wed, 01 Jan 2025 11:00:00 GMT", CAP, CLOCK)).isEqualTo(Duration.ZERO);
        assertThat(RetryAfter.parse("Fri, 01 Jan 2100 00:00:00 GMT", CAP, CLOCK)).isEqualTo(CAP);
    }

    @Test
    void negativeFractionalOrGarbageIsIgnored() {
        for (String v : new String[] {null, "", "-1", "1.5", "1e9", "soon", "0x10", "١٢", "x".repeat(100)}) {
            assertThat(RetryAfter.parse(v, CAP, CLOCK)).as("'%s'", v).isNull();
        }
    }
}
