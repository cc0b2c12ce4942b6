package dev.toolonce.schemas;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * W3C Trace Context {@code traceparent} values (docs/contract.md §14): {@code version-traceid-parentid-flags}, e.g.
 * {@code 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01}. ToolOnce carries an agent's trace from the
 * intent to the result and the tool call; it never starts traces of its own. A value that is not a valid
 * {@code traceparent} is dropped (never forwarded, never a reason to refuse an intent).
 */
public final class TraceParent {
    /** Version 00's layout; later versions may append fields after a dash, which are ignored, not kept. */
    private static final Pattern FORMAT = Pattern.compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?");
    private static final String ZERO_TRACE = "0".repeat(32);
    private static final String ZERO_PARENT = "0".repeat(16);
    /** The longest value kept: version 00 is 55 characters. */
    public static final int LENGTH = 55;

    private TraceParent() {
    }

    /** {@code value} when it is a valid traceparent (its first 55 characters), else null. */
    public static String valid(String value) {
        if (value == null) {
            return null;
        }
        var m = FORMAT.matcher(value.strip());
        if (!m.matches() || m.group(1).equals("ff") || (m.group(1).equals("00") && m.group(5) != null)
                || m.group(2).equals(ZERO_TRACE) || m.group(3).equals(ZERO_PARENT)) {
            return null;
        }
        return value.strip().substring(0, LENGTH);
    }

    /** A Kafka header's bytes as a traceparent, or null (absent, not UTF-8 text, or invalid). */
    public static String valid(byte[] header) {
        if (header == null || header.length > 256) {
            return null;
        }
        return valid(new String(header, StandardCharsets.UTF_8));
    }

    /** The traceparent of span {@code spanId} in trace {@code traceId} (hex ids, as tracing libraries log them), or null. */
    public static String of(String traceId, String spanId, boolean sampled) {
        if (traceId == null || spanId == null) {
            return null;
        }
        return valid("00-" + traceId.toLowerCase() + "-" + spanId.toLowerCase() + (sampled ? "-01" : "-00"));
    }

    /** The trace id of a valid traceparent. */
    public static String traceId(String traceparent) {
        return traceparent.substring(3, 35);
    }
}
