package dev.toolonce.core.hash;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.InvalidArgumentsException;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import org.erdtman.jcs.JsonCanonicalizer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * docs/protocol.md §3: {@code sha256:hex(SHA-256(JCS({tenantId, tool, operation, arguments})))},
 * JCS = RFC 8785. JCS reads numbers as IEEE doubles, so numbers it cannot represent exactly
 * (integers beyond ±(2^53−1), values outside the double range) are refused with
 * {@link InvalidArgumentsException} naming the path, rather than hashed lossily. Stateless, thread-safe.
 */
public final class RequestHasher {
    private static final BigInteger MAX_SAFE = BigInteger.valueOf((1L << 53) - 1);
    /** Decimal exponents of the largest finite and the smallest subnormal double. */
    private static final int MAX_DOUBLE_EXPONENT = 308;
    private static final int MIN_DOUBLE_EXPONENT = -324;
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /**
     * @param arguments the intent's arguments object, parsed with exact numbers (BigDecimal/BigInteger)
     * @return the request hash
     * @throws InvalidArgumentsException when a number cannot be hashed faithfully
     */
    public RequestHash hash(CallScope scope, JsonNode arguments) {
        return new RequestHash("sha256:" + HexFormat.of().formatHex(sha256(canonical(scope, arguments))));
    }

    /** The RFC 8785 canonical form of the hashed object, as UTF-8 bytes. */
    public byte[] canonical(CallScope scope, JsonNode arguments) {
        checkNumbers("arguments", arguments);
        ObjectNode hashed = JsonNodeFactory.instance.objectNode();
        hashed.put("tenantId", scope.tenantId());
        hashed.put("tool", scope.tool());
        hashed.put("operation", scope.operation());
        hashed.set("arguments", arguments);
        return canonicalize(MAPPER.writeValueAsString(hashed)).getBytes(StandardCharsets.UTF_8);
    }

    /** RFC 8785 canonical form of any JSON text. @throws IllegalArgumentException when not JSON */
    public static String canonicalize(String json) {
        try {
            return new JsonCanonicalizer(json).getEncodedString();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot canonicalize JSON: " + e.getMessage(), e);
        }
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    private static void checkNumbers(String path, JsonNode node) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                checkNumbers(path + "." + e.getKey(), e.getValue());
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                checkNumbers(path + "[" + i + "]", node.get(i));
            }
        } else if (node.isNumber()) {
            checkNumber(path, node.decimalValue());
        }
    }

    private static void checkNumber(String path, BigDecimal value) {
        // The exponent is read from precision and scale, which cost nothing; nothing is expanded before it is
        // known to be small (a literal such as 1e1000000000 would otherwise take minutes and gigabytes).
        long exponent = (long) value.precision() - value.scale() - 1;
        if (exponent > MAX_DOUBLE_EXPONENT) {
            throw new InvalidArgumentsException(path, "is outside the IEEE double range");
        }
        if (exponent < MIN_DOUBLE_EXPONENT && value.signum() != 0) {
            throw new InvalidArgumentsException(path,
                    "is too small for an IEEE double: JSON canonicalization (RFC 8785) would read it as 0; send it as a string");
        }
        BigDecimal stripped = value.stripTrailingZeros();
        boolean integral = stripped.scale() <= 0;
        if (integral && (exponent > 15 || stripped.toBigInteger().abs().compareTo(MAX_SAFE) > 0)) {
            throw new InvalidArgumentsException(path,
                    "is an integer beyond ±(2^53-1) that JSON canonicalization (RFC 8785) cannot keep exact: send it as a string");
        }
        double d = value.doubleValue();
        if (Double.isInfinite(d)) {
            throw new InvalidArgumentsException(path, "is outside the IEEE double range");
        }
        // Two decimals that differ only beyond a double's precision would share one canonical form and so one
        // hash: refuse them instead, so that different requests never look alike.
        if (!integral && new BigDecimal(Double.toString(d)).compareTo(value) != 0) {
            throw new InvalidArgumentsException(path,
                    "has more precision than an IEEE double keeps, so RFC 8785 would conflate it with a nearby number: send it as a string");
        }
    }
}
