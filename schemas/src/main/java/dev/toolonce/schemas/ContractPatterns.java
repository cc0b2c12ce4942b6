package dev.toolonce.schemas;

import com.networknt.schema.regex.JDKRegularExpressionFactory;
import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressionFactory;
import java.util.Map;

/**
 * The character rules of public contract v1, written out by hand, and the schema validator's regular expressions for
 * them. Every intent and result is checked against these rules several times on its way (the validator's
 * {@code pattern} keyword, {@code CallScope}, {@code RequestHash}), and a JFR profile of the executor found a quarter
 * to almost half of its samples in {@code java.util.regex} doing so (docs/performance.md). The hand-written checks
 * answer exactly what the schemas' patterns answer under ECMA-262 semantics, which the validator applies ({@code $}
 * is the end of input, never before a final line terminator); {@code ContractPatternsTest} holds each one to the
 * validator's own regular expression of the same pattern on generated and edge-case strings. A pattern this class
 * does not know is compiled by the validator's JDK factory as before. Thread-safe, stateless.
 */
public final class ContractPatterns implements RegularExpressionFactory {
    /** No C0 control character and no DEL: identifiers and texts of the contract. */
    public static final String NO_CONTROL = "^[^\\u0000-\\u001F\\u007F]*$";
    /** No NUL: the error message of a result, which may hold line breaks. */
    public static final String NO_NUL = "^[^\\u0000]*$";
    /** Tenant, tool and operation names. */
    public static final String NAME = "^[A-Za-z0-9._-]{1,64}$";
    /** Idempotency keys. */
    public static final String KEY = "^[\\x20-\\x7E]{1,255}$";
    /** Request hashes. */
    public static final String REQUEST_HASH = "^sha256:[0-9a-f]{64}$";

    private static final ContractPatterns INSTANCE = new ContractPatterns();
    private static final Map<String, RegularExpression> KNOWN = Map.of(
            NO_CONTROL, ContractPatterns::hasNoControl,
            NO_NUL, s -> s.indexOf('\u0000') < 0,
            NAME, ContractPatterns::isName,
            KEY, s -> isPrintableAscii(s, 255),
            REQUEST_HASH, ContractPatterns::isRequestHash);

    private ContractPatterns() {
    }

    /** The factory to give the schema validator. */
    public static ContractPatterns factory() {
        return INSTANCE;
    }

    @Override
    public RegularExpression getRegularExpression(String regex) {
        RegularExpression known = KNOWN.get(regex);
        return known != null ? known : JDKRegularExpressionFactory.getInstance().getRegularExpression(regex);
    }

    /** {@value #NAME}: 1 to 64 characters of {@code A-Z a-z 0-9 . _ -}; false for null. */
    public static boolean isName(String s) {
        if (s == null || s.isEmpty() || s.length() > 64) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** 1 to {@code max} printable ASCII characters (0x20 to 0x7E; {@value #KEY} for 255); false for null. */
    public static boolean isPrintableAscii(String s, int max) {
        if (s == null || s.isEmpty() || s.length() > max) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                return false;
            }
        }
        return true;
    }

    /** {@value #REQUEST_HASH}; false for null. */
    public static boolean isRequestHash(String s) {
        if (s == null || s.length() != 71 || !s.startsWith("sha256:")) {
            return false;
        }
        for (int i = 7; i < 71; i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    /** {@value #NO_CONTROL}: no character from U+0000 to U+001F nor U+007F; false for null. */
    public static boolean hasNoControl(String s) {
        if (s == null) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                return false;
            }
        }
        return true;
    }
}
