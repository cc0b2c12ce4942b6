package dev.toolonce.chaos.stack;

import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.schemas.signing.SigningKey;
import dev.toolonce.security.Role;
import dev.toolonce.security.token.ApiToken;
import dev.toolonce.security.token.TokenEntry;
import dev.toolonce.security.token.TokenFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The experiment's own stack is as secure as any: its services read a token file and a keyring, the experiment holds
 * a token, and its workload signs like any agent.
 */
final class StackTokens {
    private StackTokens() {
    }

    /** Creates {@code file} with an agents' key and an executor's key for every tenant, unless it holds them. */
    static Path keyring(Path file) {
        try {
            List<SigningKey> keys = Files.exists(file) ? Keyring.read(file) : List.of();
            if (keys.stream().noneMatch(k -> k.name().equals("chaos-agents"))) {
                Keyring.add(file, SigningKey.generate(EnumSet.of(Power.INTENT, Power.COMPENSATE, Power.TASK),
                        Set.of("*"), "chaos-agents"));
            }
            if (keys.stream().noneMatch(k -> k.name().equals("chaos-executor"))) {
                Keyring.add(file, SigningKey.generate(EnumSet.of(Power.RESULT), Set.of("*"), "chaos-executor"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the chaos stack's keyring " + file, e);
        }
        return file;
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
