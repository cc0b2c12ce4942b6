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
 * DESIGN.md point 2: {@code sha256:hex(SHA-256(JCS({tenantId, tool, operation, arguments})))},
 * JCS = RFC 8785. JCS reads numbers as IEEE doubles, so numbers it cannot represent exactly
 * (integers beyond ±(2^53−1), values outside the double range) are refused with
 * {@link InvalidArgumentsException} naming the path, rather than hashed lossily. Stateless, thread-safe.
 */
public final class RequestHasher {
    private static final BigInteger MAX_SAFE = BigInteger.valueOf((1L << 53) - 1);
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
        BigDecimal stripped = value.stripTrailingZeros();
        boolean integral = stripped.scale() <= 0;
        if (integral && stripped.toBigInteger().abs().compareTo(MAX_SAFE) > 0) {
            throw new InvalidArgumentsException(path,
                    "is an integer beyond ±(2^53-1) that JSON canonicalization (RFC 8785) cannot keep exact: send it as a string");
        }
        if (Double.isInfinite(value.doubleValue())) {
            throw new InvalidArgumentsException(path, "is outside the IEEE double range");
        }
    }
}
