package dev.toolonce.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.regex.JDKRegularExpressionFactory;
import com.networknt.schema.regex.RegularExpression;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The conformance test of {@link ContractPatterns}: each hand-written check answers what the schema validator's own
 * regular expression of the same pattern answers, on edge cases and on generated strings; and every pattern of the
 * contract's schema files is one it knows, so that a new or changed pattern cannot silently leave the fast path.
 */
class ContractPatternsTest {
    private static final List<String> KNOWN = List.of(ContractPatterns.NO_CONTROL, ContractPatterns.NO_NUL,
            ContractPatterns.NAME, ContractPatterns.KEY, ContractPatterns.REQUEST_HASH);
    /** Characters on and around every class boundary of the patterns, and some that are far from ASCII. */
    private static final String ALPHABET = "\u0000\u0001\t\n\r\u001F \u007F\u0080~!/:._-09afgAFZaz\u00e9\u2028\ud83d\ude00";

    @Test
    void everyHandWrittenCheckAnswersWhatTheValidatorsRegularExpressionAnswers() {
        List<String> samples = samples();
        for (String pattern : KNOWN) {
            RegularExpression jdk = JDKRegularExpressionFactory.getInstance().getRegularExpression(pattern);
            RegularExpression fast = ContractPatterns.factory().getRegularExpression(pattern);
            assertThat(fast).as("a hand-written check, not the JDK's").isNotInstanceOf(jdk.getClass());
            int accepted = 0;
            for (String s : samples) {
                assertThat(fast.matches(s)).as("%s on %s", pattern, escaped(s)).isEqualTo(jdk.matches(s));
                accepted += jdk.matches(s) ? 1 : 0;
            }
            assertThat(accepted).as("the samples reach both answers of " + pattern).isPositive().isLessThan(samples.size());
        }
    }

    @Test
    void aTrailingLineBreakIsRefusedAsEcmaScriptRefusesIt() {
        // java.util.regex alone would let '$' match before a final line terminator; the validator does not.
        assertThat(ContractPatterns.factory().getRegularExpression(ContractPatterns.NAME).matches("acme\n")).isFalse();
        assertThat(ContractPatterns.factory().getRegularExpression(ContractPatterns.NO_CONTROL).matches("m-1\n")).isFalse();
        assertThat(JDKRegularExpressionFactory.getInstance().getRegularExpression(ContractPatterns.NAME).matches("acme\n"))
                .isFalse();
    }

    @Test
    void anUnknownPatternIsTheJdksAsBefore() {
        RegularExpression other = ContractPatterns.factory().getRegularExpression("^a+b$");
        assertThat(other.matches("aab")).isTrue();
        assertThat(other.matches("ab\n")).isFalse();
        assertThat(other.matches("ba")).isFalse();
    }

    @Test
    void everyPatternOfTheContractsSchemasIsOneWithAHandWrittenCheck() throws IOException {
        Set<String> used = new TreeSet<>();
        ObjectMapper mapper = new ObjectMapper();
        for (String schema : List.of("tool-intent", "tool-result", "agent-task")) {
            try (InputStream in = getClass().getResourceAsStream("/schemas/" + schema + ".v1.json")) {
                collectPatterns(mapper.readTree(in), used);
            }
        }
        assertThat(used).as("the schemas' patterns").isNotEmpty();
        assertThat(KNOWN).containsAll(used);
    }

    @Test
    void theStaticChecksRefuseNull() {
        assertThat(ContractPatterns.isName(null)).isFalse();
        assertThat(ContractPatterns.isPrintableAscii(null, 255)).isFalse();
        assertThat(ContractPatterns.isRequestHash(null)).isFalse();
        assertThat(ContractPatterns.hasNoControl(null)).isFalse();
    }

    private static void collectPatterns(JsonNode node, Set<String> into) {
        if (node.isObject()) {
            JsonNode p = node.get("pattern");
            if (p != null && p.isString()) {
                into.add(p.asString());
            }
            node.values().forEach(child -> collectPatterns(child, into));
        } else if (node.isArray()) {
            node.forEach(child -> collectPatterns(child, into));
        }
    }

    private static List<String> samples() {
        List<String> s = new ArrayList<>(List.of("", "a", "acme", "A.b_c-9", "k/1 with space", "~", " ",
                "x".repeat(64), "x".repeat(65), "k".repeat(255), "k".repeat(256), "sha256:" + "a".repeat(64),
                "sha256:" + "a".repeat(63), "sha256:" + "a".repeat(65), "sha256:" + "A".repeat(64),
                "sha256:" + "0123456789abcdef".repeat(4), "SHA256:" + "a".repeat(64), "sha256:" + "g".repeat(64),
                "sha256:" + "a".repeat(64) + "\n", "acme\n", "\nacme", "ac\nme", "m\r", "a\u0000", "\u007F", "\u0080",
                "caf\u00e9", "\ud83d\ude00", "line\u2028sep"));
        Random random = new Random(20261204L);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder(i % 3 == 0 ? "sha256:" : "");
            int length = random.nextInt(i % 50 == 0 ? 300 : 70);
            for (int j = 0; j < length; j++) {
                // Mostly characters every pattern accepts, so that long accepted strings are generated too.
                b.append(random.nextInt(8) == 0 ? ALPHABET.charAt(random.nextInt(ALPHABET.length()))
                        : "abcdef0123456789".charAt(random.nextInt(16)));
            }
            s.add(b.toString());
        }
        return s;
    }

    private static String escaped(String s) {
        StringBuilder b = new StringBuilder();
        s.chars().forEach(c -> b.append(c < 0x20 || c >= 0x7F ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return b.toString();
    }
}
