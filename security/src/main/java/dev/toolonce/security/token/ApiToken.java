package dev.toolonce.security.token;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An API token as a client sends it: {@code tot_<id>_<secret>}, where the id (12 hex digits) finds the token's line in
 * the token file and the secret (256 random bits, base64url) proves it. Only the secret's SHA-256 is stored: the
 * secret has full entropy, so a fast hash is as strong as a slow one, and a leaked token file grants nothing.
 *
 * @param id     the public part, safe to log
 * @param secret the secret part; never logged, never stored
 */
public record ApiToken(String id, String secret) {
    public static final String PREFIX = "tot_";
    private static final Pattern SHAPE = Pattern.compile("tot_([0-9a-f]{12})_([A-Za-z0-9_-]{43})");
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A new token with a random id and secret. */
    public static ApiToken generate() {
        byte[] id = new byte[6];
        byte[] secret = new byte[32];
        RANDOM.nextBytes(id);
        RANDOM.nextBytes(secret);
        return new ApiToken(HexFormat.of().formatHex(id), Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
    }

    /** @return the token if {@code text} has the token's shape, else empty (it may be a JWT or garbage) */
    public static Optional<ApiToken> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        var m = SHAPE.matcher(text);
        return m.matches() ? Optional.of(new ApiToken(m.group(1), m.group(2))) : Optional.empty();
    }

    /** @return the SHA-256 of the secret, hex */
    public String secretHash() {
        return HexFormat.of().formatHex(sha256(secret));
    }

    /** @return whether this token's secret hashes to {@code storedHash}, compared in constant time */
    public boolean matches(String storedHash) {
        byte[] stored;
        try {
            stored = HexFormat.of().parseHex(storedHash);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(sha256(secret), stored);
    }

    @Override
    public String toString() {
        return PREFIX + id + "_" + secret;
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
