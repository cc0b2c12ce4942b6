package dev.toolonce.schemas;

import java.math.BigDecimal;
import java.util.Map;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.databind.JsonNode;

/**
 * Limits every event read by ToolOnce is held to before anything costly happens to it (docs/failure-model.md,
 * "Hostile input"). The parser enforces depth, string, name and number lengths while it reads; {@link #check}
 * then refuses numbers whose exponent would make any exact arithmetic (BigInteger expansion, JCS) explode.
 * Stateless, thread-safe.
 */
public final class InputBounds {
    /** Deepest nesting of objects and arrays in one event. */
    public static final int MAX_DEPTH = 64;
    /** Longest string value, in chars; events are also limited in bytes by each consumer. */
    public static final int MAX_STRING_CHARS = 1 << 20;
    /** Longest property name, in chars. */
    public static final int MAX_NAME_CHARS = 1024;
    /** Most characters in one number literal (digits, sign, point and exponent). */
    public static final int MAX_NUMBER_CHARS = 400;
    /**
     * Largest decimal exponent magnitude of a number, as in {@code d.ddd × 10^e}. IEEE doubles span about
     * 10^-324..10^308, so nothing beyond ±400 can be hashed faithfully; refusing it here keeps a literal like
     * {@code 1e1000000000} from ever being expanded.
     */
    public static final int MAX_EXPONENT = 400;
    /** Longest message id, task id, step id or error code, as the schemas allow. */
    public static final int MAX_ID_CHARS = 255;
    /**
     * Longest external object id, and longest scope value an answer echoes, as the result schema allows (an
     * invalid scope is echoed as sent, so it is not held to the scope's own 64/255).
     */
    public static final int MAX_LONG_ID_CHARS = 1024;
    /** Longest error message a result event carries. */
    public static final int MAX_MESSAGE_CHARS = 4000;

    private InputBounds() {
    }

    /** The parser limits above, for Jackson. */
    static StreamReadConstraints constraints() {
        return StreamReadConstraints.builder()
                .maxNestingDepth(MAX_DEPTH)
                .maxStringLength(MAX_STRING_CHARS)
                .maxNameLength(MAX_NAME_CHARS)
                .maxNumberLength(MAX_NUMBER_CHARS)
                .build();
    }

    /**
     * Walks a parsed tree (depth already bounded by the parser) and refuses out-of-range numbers.
     *
     * @throws OutOfBoundsException naming the JSON pointer of the first offending number
     */
    public static void check(JsonNode node) {
        check("", node);
    }

    private static void check(String pointer, JsonNode node) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                check(pointer + "/" + e.getKey(), e.getValue());
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                check(pointer + "/" + i, node.get(i));
            }
        } else if (node.isNumber() && (node.isBigDecimal() || node.isBigInteger())) {
            BigDecimal d = node.decimalValue(); // cheap: unscaled digits + scale, never expanded
            long exponent = (long) d.precision() - d.scale() - 1;
            if (Math.abs(exponent) > MAX_EXPONENT) {
                throw new OutOfBoundsException("number at " + (pointer.isEmpty() ? "/" : pointer)
                        + " has a decimal exponent of " + exponent + "; the limit is ±" + MAX_EXPONENT);
            }
        }
    }

    /**
     * An identifier as it may be stored and echoed: C0 control characters and DEL (which PostgreSQL text or
     * the contract's schemas refuse) become U+FFFD, and it is cut to {@code maxChars}. Null stays null.
     */
    public static String identifier(String s, int maxChars) {
        return s == null ? null : cut(replace(s, true), maxChars);
    }

    /** Free text (messages) as it may be stored: only NUL, which PostgreSQL text refuses, becomes U+FFFD. */
    public static String text(String s, int maxChars) {
        return s == null ? null : cut(replace(s, false), maxChars);
    }

    /** Whether {@code s} has a C0 control character or DEL. */
    public static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                return true;
            }
        }
        return false;
    }

    private static String replace(String s, boolean allControls) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean bad = c == 0 || allControls && (c < 0x20 || c == 0x7F);
            if (bad && out == null) {
                out = new StringBuilder(s.length()).append(s, 0, i);
            }
            if (out != null) {
                out.append(bad ? '\uFFFD' : c);
            }
        }
        return out == null ? s : out.toString();
    }

    private static String cut(String s, int maxChars) {
        return s.length() <= maxChars ? s : s.substring(0, maxChars);
    }

    /** An event exceeds a limit; the message names the limit and where. */
    public static final class OutOfBoundsException extends IllegalArgumentException {
        public OutOfBoundsException(String message) {
            super(message);
        }

        public OutOfBoundsException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
