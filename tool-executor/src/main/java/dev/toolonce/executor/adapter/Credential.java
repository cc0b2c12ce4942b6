package dev.toolonce.executor.adapter;

/**
 * A header carrying a secret. {@link #toString()} masks the value, and {@link #redact} removes it from
 * any text that is about to be stored or logged (a provider may echo it in an error body).
 */
final class Credential {
    private static final String MASK = "****";
    private final String header;
    private final String value;
    private final String secret;

    Credential(String header, String prefix, String secret) {
        this.header = header;
        this.secret = secret;
        this.value = (prefix == null ? "" : prefix) + secret;
    }

    String header() {
        return header;
    }

    String value() {
        return value;
    }

    /** @return {@code text} with every occurrence of the secret replaced by a mask; null stays null */
    String redact(String text) {
        return text == null ? null : text.replace(secret, MASK);
    }

    @Override
    public String toString() {
        return header + ": " + MASK;
    }
}
