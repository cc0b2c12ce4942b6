package dev.toolonce.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * jqwik generators of hostile contract events: valid JSON shaped like an intent or a result, with one field
 * made hostile — huge and tiny numbers, very long digit runs, deep nesting, control characters (NUL included),
 * very long strings, wrong types — plus bytes that are not JSON or not UTF-8 at all. Used by the unit
 * properties of the parsers and by the system test that sends them through the real pipeline.
 */
public final class HostileJson {
    private HostileJson() {
    }

    /** A hostile JSON value: what goes where a field's value would be. */
    public static Arbitrary<String> value() {
        return Arbitraries.oneOf(List.of(
                hugeNumber(), tinyNumber(), longDigits(), deepNesting(), controlString(), longString(),
                Arbitraries.of("null", "true", "[]", "{}", "\"\"", "-0", "0.1000000000000000000001",
                        "9007199254740993", "1E30", "-1e-400", "1.5e308", "1e309", "\"\\ud800\"")));
    }

    /** An intent (or, with {@code result=true}, a result) with one hostile field, as UTF-8 bytes. */
    public static Arbitrary<byte[]> intent(String tenant) {
        return Combinators.combine(Arbitraries.of(INTENT_FIELDS), value(), Arbitraries.strings().alpha().ofLength(8))
                .as((field, hostile, key) -> utf8(intentWith(tenant, key, field, hostile)));
    }

    /** A result with one hostile field, as UTF-8 bytes. */
    public static Arbitrary<byte[]> result(String tenant) {
        return Combinators.combine(Arbitraries.of(RESULT_FIELDS), value(), Arbitraries.strings().alpha().ofLength(8))
                .as((field, hostile, key) -> utf8(resultWith(tenant, key, field, hostile)));
    }

    /** Bytes that are not a JSON object: garbage, truncated JSON, invalid UTF-8, empty. */
    public static Arbitrary<byte[]> garbage() {
        return Arbitraries.oneOf(List.of(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(64),
                Arbitraries.of("{\"tenantId\": oops", "[1,2,3]", "\"just a string\"", "{}", "{\"a\":1}{\"b\":2}", "")
                        .map(HostileJson::utf8),
                Arbitraries.just(new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'})));
    }

    /** Field names of an intent that {@link #intent} makes hostile; "arguments.x" puts the value inside. */
    public static final List<String> INTENT_FIELDS = List.of("messageId", "tenantId", "tool", "operation",
            "idempotencyKey", "arguments", "arguments.x", "taskId", "stepId", "requestedAt");
    /** Field names of a result that {@link #result} makes hostile. */
    public static final List<String> RESULT_FIELDS = List.of("messageId", "intentMessageId", "tenantId",
            "idempotencyKey", "taskId", "stepId", "callVersion", "status", "externalObjectId", "result", "error",
            "attempts", "completedAt");

    /** A valid counter intent's JSON with {@code field} set to the raw JSON {@code hostile}. */
    public static String intentWith(String tenant, String key, String field, String hostile) {
        Function<String, String> v = f -> field.equals(f) ? hostile : null;
        String args = field.equals("arguments.x") ? "{\"opId\":\"" + tenant + ":" + key + "\",\"x\":" + hostile + "}"
                : or(v.apply("arguments"), "{\"opId\":\"" + tenant + ":" + key + "\",\"delta\":1}");
        return "{\"messageId\":" + or(v.apply("messageId"), q("m-" + key))
                + ",\"tenantId\":" + or(v.apply("tenantId"), q(tenant))
                + ",\"tool\":" + or(v.apply("tool"), q("counter"))
                + ",\"operation\":" + or(v.apply("operation"), q("apply"))
                + ",\"idempotencyKey\":" + or(v.apply("idempotencyKey"), q(key))
                + ",\"arguments\":" + args
                + ",\"taskId\":" + or(v.apply("taskId"), q("task-" + key))
                + ",\"stepId\":" + or(v.apply("stepId"), q("1"))
                + ",\"requestedAt\":" + or(v.apply("requestedAt"), "null") + "}";
    }

    /** A valid COMMITTED result's JSON with {@code field} set to the raw JSON {@code hostile}. */
    public static String resultWith(String tenant, String key, String field, String hostile) {
        Function<String, String> v = f -> field.equals(f) ? hostile : null;
        return "{\"messageId\":" + or(v.apply("messageId"), q("r-" + key))
                + ",\"intentMessageId\":" + or(v.apply("intentMessageId"), q("m-" + key))
                + ",\"tenantId\":" + or(v.apply("tenantId"), q(tenant))
                + ",\"tool\":\"counter\",\"operation\":\"apply\""
                + ",\"idempotencyKey\":" + or(v.apply("idempotencyKey"), q(key))
                + ",\"requestHash\":null"
                + ",\"taskId\":" + or(v.apply("taskId"), q("task-" + key))
                + ",\"stepId\":" + or(v.apply("stepId"), q("1"))
                + ",\"callVersion\":" + or(v.apply("callVersion"), "1")
                + ",\"status\":" + or(v.apply("status"), q("COMMITTED"))
                + ",\"externalObjectId\":" + or(v.apply("externalObjectId"), q("ext-" + key))
                + ",\"result\":" + or(v.apply("result"), "{}")
                + ",\"error\":" + or(v.apply("error"), "null")
                + ",\"attempts\":" + or(v.apply("attempts"), "1")
                + ",\"replayed\":false"
                + ",\"completedAt\":" + or(v.apply("completedAt"), q("2026-12-01T00:00:00Z")) + "}";
    }

    private static Arbitrary<String> hugeNumber() {
        return Arbitraries.longs().between(309, 3_000_000_000L).map(e -> "1e" + e);
    }

    private static Arbitrary<String> tinyNumber() {
        return Arbitraries.longs().between(325, 3_000_000_000L).map(e -> "-7.5e-" + e);
    }

    private static Arbitrary<String> longDigits() {
        return Arbitraries.integers().between(17, 5000).map(n -> "1" + "0".repeat(n));
    }

    private static Arbitrary<String> deepNesting() {
        return Arbitraries.integers().between(2, 3000).map(n -> "[".repeat(n) + "1" + "]".repeat(n));
    }

    private static Arbitrary<String> controlString() {
        return Arbitraries.strings().withCharRange('\u0000', '\u001f').withChars('\u007f', 'a', '/', '.')
                .ofMinLength(1).ofMaxLength(40).map(HostileJson::jsonString);
    }

    private static Arbitrary<String> longString() {
        return Arbitraries.integers().between(256, 2_000_000).map(n -> q("x".repeat(n)));
    }

    /** A JSON string literal of {@code s}, control characters escaped as \\uXXXX. */
    public static String jsonString(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c < 0x20 || c == '"' || c == '\\' || c == 0x7f) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    private static String q(String s) {
        return jsonString(s);
    }

    private static String or(String a, String b) {
        return a != null ? a : b;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
