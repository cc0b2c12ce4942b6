package dev.toolonce.core.hash;

import dev.toolonce.schemas.ContractPatterns;

/** {@code sha256:<64 lowercase hex>}: the hash that binds an idempotency key to its request. */
public record RequestHash(String value) {
    public RequestHash {
        if (!ContractPatterns.isRequestHash(value)) {
            throw new IllegalArgumentException("request hash must be sha256:<64 hex>, was " + value);
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
