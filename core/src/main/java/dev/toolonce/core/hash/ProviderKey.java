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
    public ProviderKey {
        if (value == null || value.length() != 43) {
            throw new IllegalArgumentException("provider key must be 43 base64url characters, was " + value);
        }
    }

    /** The provider key of a call. */
    public static ProviderKey of(CallScope scope) {
        return digest(scope.recordKey());
    }

    /**
     * The provider key of the compensation of a call: the provider key of its compensation scope
     * ({@link dev.toolonce.core.call.Compensation#of}, {@code tenant/tool/op.compensate/key}). No user call has
     * that scope, so this key never equals the provider key of any user call (docs/protocol.md §17).
     */
    public static ProviderKey compensationOf(CallScope scope) {
        return of(dev.toolonce.core.call.Compensation.of(scope));
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
