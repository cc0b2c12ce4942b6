package dev.toolonce.chaos.stack;

import dev.toolonce.security.Role;
import dev.toolonce.security.token.ApiToken;
import dev.toolonce.security.token.TokenEntry;
import dev.toolonce.security.token.TokenFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Set;

/** The experiment's own stack is as secure as any: its services read a token file, and the experiment holds a token. */
final class StackTokens {
    private StackTokens() {
    }

    /** Adds a new scrape token for every tenant to {@code file}. @return the bearer */
    static String scrape(Path file) {
        ApiToken t = ApiToken.generate();
        try {
            TokenFile.add(file, new TokenEntry(t.id(), t.secretHash(), Set.of(Role.SCRAPE), Set.of("*"), "chaos-meters"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the chaos stack's token file " + file, e);
        }
        return t.toString();
    }
}
