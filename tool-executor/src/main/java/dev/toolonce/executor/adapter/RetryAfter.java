package dev.toolonce.executor.adapter;

import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Reads a {@code Retry-After} header (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) within bounds: a
 * value above {@code cap} is capped (a tool cannot park a call for a year), a date in the past or
 * {@code 0} means no wait, and a negative, fractional, overflowing or unreadable value is ignored (null:
 * the executor's own backoff applies). Never throws.
 */
final class RetryAfter {
    private RetryAfter() {
    }

    /**
     * @param value the header value; nullable
     * @param cap   the longest wait honoured; positive
     * @param clock for HTTP-dates
     * @return the wait, in [0, cap], or null when the header is absent or unusable
     */
    static Duration parse(String value, Duration cap, Clock clock) {
        if (value == null) {
            return null;
        }
        String v = value.trim();
        if (v.isEmpty() || v.length() > 64) {
            return null;
        }
        if (v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            // Longer than 18 digits cannot be a sane delay and would overflow a long: the cap applies.
            long seconds = v.length() > 18 ? Long.MAX_VALUE : Long.parseLong(v);
            return seconds >= cap.toSeconds() ? cap : Duration.ofSeconds(seconds);
        }
        try {
            ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
            Duration wait = Duration.between(clock.instant(), at.toInstant());
            return wait.isNegative() ? Duration.ZERO : wait.compareTo(cap) > 0 ? cap : wait;
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
