package dev.toolonce.core.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** NUL never reaches PostgreSQL text or jsonb. */
class StoredTextTest {
    private static final String NUL = String.valueOf((char) 0);
    private static final String ESCAPE = "\\" + "u0000";

    @Test
    void rawNulIsReplaced() {
        assertThat(StoredText.clean("a" + NUL + "b" + NUL)).isEqualTo("a\uFFFDb\uFFFD");
        assertThat(StoredText.clean("plain")).isEqualTo("plain");
        assertThat(StoredText.clean(null)).isNull();
    }

    @Test
    void escapedNulInJsonIsReplacedButAnEscapedBackslashFollowedByTextIsNot() {
        assertThat(StoredText.cleanJson("{\"a\":\"x" + ESCAPE + "y\"}")).isEqualTo("{\"a\":\"x\\uFFFDy\"}");
        // \\ then u0000: a literal backslash followed by the text u0000 — not a NUL, left alone
        assertThat(StoredText.cleanJson("{\"a\":\"\\" + ESCAPE + "\"}")).isEqualTo("{\"a\":\"\\" + ESCAPE + "\"}");
        // \\\\ then \\u0000: two literal backslashes, then a real NUL escape
        assertThat(StoredText.cleanJson("\"\\\\" + ESCAPE + "\"")).isEqualTo("\"\\\\\\uFFFD\"");
        assertThat(StoredText.cleanJson("\"" + NUL + "\"")).isEqualTo("\"\uFFFD\"");
    }

    @Test
    void printableMeansNoC0NorDel() {
        assertThat(StoredText.isPrintable("ch_1-ü")).isTrue();
        assertThat(StoredText.isPrintable("a\tb")).isFalse();
        assertThat(StoredText.isPrintable("a\u007Fb")).isFalse();
    }
}
