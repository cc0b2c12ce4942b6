package dev.toolonce.security.token;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where a ToolOnce client (the CLIs, the demo, the bench) takes its bearer token from, first found wins:
 * {@code TOOLONCE_TOKEN}; the file named by {@code TOOLONCE_TOKEN_FILE}; {@code $TOOLONCE_HOME/admin.token}, which
 * {@code ./toolonce up} creates for the local stack ({@code TOOLONCE_HOME} defaults to {@code .local}).
 */
public final class ClientToken {
    private ClientToken() {
    }

    /** @return the bearer, or empty when none of the three is there */
    public static Optional<String> from(Map<String, String> env) {
        String token = env.get("TOOLONCE_TOKEN");
        if (token != null && !token.isBlank()) {
            return Optional.of(token.trim());
        }
        String file = env.get("TOOLONCE_TOKEN_FILE");
        Path path = file != null && !file.isBlank() ? Path.of(file)
                : Path.of(env.getOrDefault("TOOLONCE_HOME", ".local"), "admin.token");
        if (!Files.isReadable(path)) {
            return Optional.empty();
        }
        try {
            String t = Files.readString(path).trim();
            return t.isEmpty() ? Optional.empty() : Optional.of(t);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the token file " + path, e);
        }
    }

    /** @return {@code Bearer <token>} for an {@code Authorization} header, or empty */
    public static Optional<String> header(Map<String, String> env) {
        return from(env).map(t -> "Bearer " + t);
    }
}
