package dev.toolonce.core.hash;

import dev.toolonce.core.call.CallScope;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * docs/protocol.md §8: what a tool sees instead of the scope,
 * {@code base64url(SHA-256(scope))} without padding — 43 characters, no tenant data in clear,
 * collision-free across tenants because the hashed text is the full scope.
 */
public record ProviderKey(String value) {
    private static final String COMPENSATE_SUFFIX = "#compensate";

    public ProviderKey {
        if (value == null || value.length() != 43) {
            throw new IllegalArgumentException("provider key must be 43 base64url characters, was " + value);
        }
    }

    /** The provider key of a call. */
    public static ProviderKey of(CallScope scope) {
        return digest(scope.recordKey());
    }

    /** The provider key of the compensation of a call: derived from the scope plus {@code #compensate}. */
    public static ProviderKey compensationOf(CallScope scope) {
        return digest(scope.recordKey() + COMPENSATE_SUFFIX);
    }

    private static ProviderKey digest(String text) {
        byte[] hash = RequestHasher.sha256(text.getBytes(StandardCharsets.UTF_8));
        return new ProviderKey(Base64.getUrlEncoder().withoutPadding().encodeToString(hash));
    }

    @Override
    public String toString() {
        return value;
    }
}
