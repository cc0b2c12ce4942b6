package dev.toolonce.core.text;

import dev.toolonce.schemas.InputBounds;
import java.util.regex.Pattern;

/**
 * Text that came from outside (a tool's answer, an exception message) made safe to store: PostgreSQL
 * {@code text} refuses the NUL character (U+0000), and {@code jsonb} refuses its JSON escape, so one
 * NUL in a hostile response could otherwise make a completion transaction fail on every retry. NUL is
 * replaced by U+FFFD (the replacement character); nothing else changes. The character rules are those of
 * {@link InputBounds}, which the consumers apply to what they read. Pure functions, null-safe.
 */
public final class StoredText {
    /** The replacement for NUL. */
    public static final char REPLACEMENT = '\uFFFD';
    /** A JSON escape of U+0000 that is not itself escaped (preceded by an even number of backslashes). */
    private static final Pattern ESCAPED_NUL = Pattern.compile("(?<!\\\\)((?:\\\\\\\\)*)\\\\u0000");

    private StoredText() {
    }

    /** @return {@code text} with every NUL replaced; null for null */
    public static String clean(String text) {
        return InputBounds.text(text, Integer.MAX_VALUE);
    }

    /**
     * JSON text with raw NULs and every JSON escape of U+0000 replaced by U+FFFD (as an escape), so that the
     * text also fits {@code jsonb}. The result is valid JSON when the input was.
     *
     * @return null for null
     */
    public static String cleanJson(String json) {
        String raw = clean(json);
        return raw == null || !raw.contains("\\u0000") ? raw
                : ESCAPED_NUL.matcher(raw).replaceAll("$1\\\\uFFFD");
    }

    /** Whether {@code text} is free of control characters (C0 and DEL), as the result contract requires of ids. */
    public static boolean isPrintable(String text) {
        return !InputBounds.hasControl(text);
    }
}
