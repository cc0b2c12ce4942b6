package dev.toolonce.security.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.security.Role;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenFileTest {
    @TempDir
    Path dir;

    @Test
    void aGeneratedTokenParsesBackAndOnlyItsOwnSecretMatchesTheStoredHash() {
        ApiToken t = ApiToken.generate();
        ApiToken other = ApiToken.generate();

        assertThat(ApiToken.parse(t.toString())).contains(t);
        assertThat(t.matches(t.secretHash())).isTrue();
        assertThat(other.matches(t.secretHash())).isFalse();
        assertThat(t.secretHash()).doesNotContain(t.secret());
        assertThat(ApiToken.parse("eyJhbGciOiJSUzI1NiJ9.e30.sig")).as("a JWT is not an API token").isEmpty();
        assertThat(ApiToken.parse(t + "x")).isEmpty();
        assertThat(ApiToken.parse(null)).isEmpty();
    }

    @Test
    void aTokenCountsFromTheMomentItIsAddedUntilItIsRevokedAndTheFileHoldsNoSecret() throws Exception {
        Path file = dir.resolve("tokens");
        TokenFile tokens = new TokenFile(file);
        ApiToken t = ApiToken.generate();
        assertThat(tokens.verify(t)).as("no file: no token").isEmpty();

        TokenFile.add(file, new TokenEntry(t.id(), t.secretHash(), Set.of(Role.OPERATOR), Set.of("acme"), "alice"));
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5))
                .until(() -> tokens.verify(t).isPresent());
        assertThat(tokens.verify(t).orElseThrow().name()).isEqualTo("alice");
        assertThat(Files.readString(file)).doesNotContain(t.secret());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");

        assertThat(TokenFile.revoke(file, t.id())).isTrue();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5))
                .until(() -> tokens.verify(t).isEmpty());
        assertThat(TokenFile.revoke(file, t.id())).isFalse();
    }

    @Test
    void aMalformedLineGrantsNothingAndTheOthersStillCount() throws Exception {
        Path file = dir.resolve("tokens");
        ApiToken t = ApiToken.generate();
        Files.write(file, List.of("# comment", "garbage", "abc:def:admin:*:x",
                t.id() + ":" + t.secretHash() + ":godmode:*:eve",
                new TokenEntry(t.id(), t.secretHash(), Set.of(Role.VIEWER), Set.of("acme"), "bob").line()));

        assertThat(TokenFile.read(file)).extracting(TokenEntry::name).containsExactly("bob");
        assertThat(new TokenFile(file).verify(t).orElseThrow().roles()).containsExactly(Role.VIEWER);
    }

    @Test
    void anEntryRefusesWhatALineCouldNotCarry() {
        ApiToken t = ApiToken.generate();
        assertThatThrownBy(() -> new TokenEntry(t.id(), t.secretHash(), Set.of(Role.VIEWER), Set.of("a:b"), "x"))
                .hasMessageContaining("tenant");
        assertThatThrownBy(() -> new TokenEntry(t.id(), t.secretHash(), Set.of(), Set.of("acme"), "x"))
                .hasMessageContaining("role");
        assertThatThrownBy(() -> new TokenEntry(t.id(), t.secretHash(), Set.of(Role.VIEWER), Set.of("acme"), "a b"))
                .hasMessageContaining("name");
    }

    @Test
    void theCommandPrintsTheTokenOnceListsWithoutSecretsAndRevokes() throws Exception {
        Path file = dir.resolve("tokens");
        String token = run(0, "create", "--file", file.toString(), "--role", "operator", "--tenant", "acme",
                "--name", "alice").trim();
        ApiToken t = ApiToken.parse(token).orElseThrow();
        assertThat(new TokenFile(file).verify(t)).isPresent();

        String listed = run(0, "list", "--file", file.toString());
        assertThat(listed).contains(t.id(), "operator", "acme", "alice").doesNotContain(t.secret());

        run(0, "revoke", "--file", file.toString(), t.id());
        assertThat(new TokenFile(file).verify(t)).isEmpty();
        run(1, "revoke", "--file", file.toString(), t.id());
        run(2, "create", "--file", file.toString(), "--role", "root", "--tenant", "acme");
        run(2, "create", "--role", "viewer", "--tenant", "acme");
    }

    private static String run(int exit, String... args) {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true));
        try {
            assertThat(TokensMain.run(List.of(args))).as(String.join(" ", args)).isEqualTo(exit);
        } finally {
            System.setOut(out);
        }
        return captured.toString();
    }
}
