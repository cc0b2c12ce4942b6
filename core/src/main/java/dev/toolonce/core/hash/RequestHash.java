package dev.toolonce.core.hash;

import java.util.regex.Pattern;

/** {@code sha256:<64 lowercase hex>}: the hash that binds an idempotency key to its request. */
public record RequestHash(String value) {
    private static final Pattern FORM = Pattern.compile("sha256:[0-9a-f]{64}");

    public RequestHash {
        if (value == null || !FORM.matcher(value).matches()) {
            throw new IllegalArgumentException("request hash must be sha256:<64 hex>, was " + value);
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
