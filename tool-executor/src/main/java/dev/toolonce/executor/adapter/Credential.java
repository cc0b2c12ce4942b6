package dev.toolonce.executor.adapter;

/**
 * A header carrying a secret. {@link #toString()} masks the value; {@link Credentials#redact} removes the secret
 * from any text that is about to be stored or logged (a provider may echo it in an error body).
 */
final class Credential {
    static final String MASK = "****";
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

    String secret() {
        return secret;
    }

    @Override
    public String toString() {
        return header + ": " + MASK;
    }
}
