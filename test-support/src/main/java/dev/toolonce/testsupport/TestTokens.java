package dev.toolonce.testsupport;

import dev.toolonce.security.Role;
import dev.toolonce.security.token.ApiToken;
import dev.toolonce.security.token.TokenEntry;
import dev.toolonce.security.token.TokenFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * The API tokens of one test JVM: a token file under {@code target/}, which every service that {@link ServiceProcess}
 * starts is given ({@code toolonce.security.tokens-file}), and the tokens the test sends. The services are secure as
 * they are by default; tests authenticate like any client.
 */
public final class TestTokens {
    private static final Path FILE = Path.of(System.getProperty("user.dir"), "target", "test-tokens",
            "tokens-" + ProcessHandle.current().pid());
    private static volatile ApiToken admin;

    private TestTokens() {
    }

    /** @return the token file the services of this JVM read */
    public static Path file() {
        return FILE;
    }

    /** @return a bearer of role admin for every tenant, created on first use */
    public static synchronized String admin() {
        if (admin == null) {
            admin = ApiToken.parse(create("test-admin", Role.ADMIN, "*")).orElseThrow();
        }
        return admin.toString();
    }

    /** @return {@code Authorization} header value of {@link #admin()} */
    public static String adminHeader() {
        return "Bearer " + admin();
    }

    /**
     * Adds a token to the file; the services see it within half a second.
     *
     * @return the bearer
     */
    public static String create(String name, Role role, String... tenants) {
        ApiToken t = ApiToken.generate();
        try {
            Files.createDirectories(FILE.getParent());
            TokenFile.add(FILE, new TokenEntry(t.id(), t.secretHash(), Set.of(role), Set.of(tenants), name));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the test token file " + FILE, e);
        }
        return t.toString();
    }
}
