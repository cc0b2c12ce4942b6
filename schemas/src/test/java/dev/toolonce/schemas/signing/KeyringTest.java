package dev.toolonce.schemas.signing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyringTest {
    private static final byte[] VALUE = "{\"tenantId\":\"acme\",\"amount\":1000}".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private static SigningKey agent(String... tenants) {
        return SigningKey.generate(EnumSet.of(Power.INTENT, Power.TASK), Set.of(tenants), "agent");
    }

    @Test
    void aSignatureVerifiesOnlyForTheSameTypeIdAndBytes() throws Exception {
        Path file = dir.resolve("keyring");
        SigningKey key = agent("acme");
        Keyring.add(file, key);
        Keyring keyring = new Keyring(file);
        String header = keyring.sign(Power.INTENT, "acme", "t", "m-1", VALUE);

        assertThat(header).startsWith("v1:" + key.kid() + ":");
        assertThat(keyring.verify(header, "t", "m-1", VALUE)).isEqualTo(new Verdict.Signed(key));
        assertThat(code(keyring.verify(header, "t", "m-2", VALUE))).isEqualTo(Verdict.BAD_SIGNATURE);
        assertThat(code(keyring.verify(header, "u", "m-1", VALUE))).isEqualTo(Verdict.BAD_SIGNATURE);
        byte[] changed = VALUE.clone();
        changed[changed.length - 2] = '1';
        assertThat(code(keyring.verify(header, "t", "m-1", changed))).isEqualTo(Verdict.BAD_SIGNATURE);
        // the length prefixes keep fields from sliding into each other
        assertThat(code(keyring.verify(header, "tm", "-1", VALUE))).isEqualTo(Verdict.BAD_SIGNATURE);
        assertThat(code(keyring.verify(null, "t", "m-1", VALUE))).isEqualTo(Verdict.UNSIGNED_RECORD);
        assertThat(code(keyring.verify("v1:kother:" + header.substring(header.lastIndexOf(':') + 1), "t", "m-1",
                VALUE))).isEqualTo(Verdict.UNKNOWN_SIGNING_KEY);
        assertThat(code(keyring.verify("v2:" + key.kid() + ":x", "t", "m-1", VALUE))).isEqualTo(Verdict.BAD_SIGNATURE);
        assertThat(code(keyring.verify("v1:" + key.kid() + ":***", "t", "m-1", VALUE))).isEqualTo(Verdict.BAD_SIGNATURE);
    }

    @Test
    void aKeySignsOnlyItsPowersForItsTenants() {
        SigningKey acme = agent("acme");
        assertThat(acme.allows(Power.INTENT, "acme")).isTrue();
        assertThat(acme.allows(Power.INTENT, "globex")).isFalse();
        assertThat(acme.allows(Power.COMPENSATE, "acme")).isFalse();
        assertThat(agent("*").allows(Power.TASK, "anyone")).isTrue();
        assertThat(new Verdict.Signed(acme).authorize(Power.RESULT, "acme").code()).isEqualTo(Verdict.SIGNER_NOT_ALLOWED);
        assertThat(new Verdict.Signed(acme).authorize(Power.INTENT, "acme")).isNull();
    }

    @Test
    void theLastKeyThatMaySignSignsSoAnAppendedKeyTakesOverWhileTheOldOneStillVerifies() throws Exception {
        Path file = dir.resolve("keyring");
        SigningKey old = agent("acme");
        SigningKey rotated = agent("acme");
        SigningKey other = agent("globex");
        Keyring.add(file, old);
        String before = new Keyring(file).sign(Power.INTENT, "acme", "t", "m", VALUE);
        Keyring.add(file, rotated);
        Keyring.add(file, other);
        Keyring keyring = new Keyring(file);

        assertThat(keyring.signer(Power.INTENT, "acme")).contains(rotated);
        assertThat(keyring.verify(before, "t", "m", VALUE)).isEqualTo(new Verdict.Signed(old));
        assertThat(Keyring.remove(file, old.kid())).isTrue();
        assertThat(code(new Keyring(file).verify(before, "t", "m", VALUE))).isEqualTo(Verdict.UNKNOWN_SIGNING_KEY);
        assertThatThrownBy(() -> keyring.sign(Power.RESULT, "acme", "t", "m", VALUE))
                .hasMessageContaining("no key in " + file).hasMessageContaining("result");
    }

    @Test
    void theFileIsOwnerOnlyAMalformedLineIsSkippedAndNoSecretIsShown() throws Exception {
        Path file = dir.resolve("keyring");
        SigningKey key = agent("acme");
        Keyring.add(file, key);
        Files.writeString(file, Files.readString(file) + "garbage:line\nk1:c2hvcnQ:intent:acme:short-secret\n");

        assertThat(Keyring.read(file)).containsExactly(key);
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        String secret = key.line().split(":")[1];
        assertThat(key.toString()).doesNotContain(secret).contains(key.kid());
        assertThat(SigningKey.parse(key.line())).isEqualTo(key);
        assertThatThrownBy(() -> SigningKey.parse("k:" + secret + ":rule:acme:x")).hasMessageContaining("unknown power");
        assertThatThrownBy(() -> SigningKey.parse("k:" + secret + ":intent:ac/me:x")).hasMessageContaining("tenant");
    }

    @Test
    void aServiceRefusesToStartWithoutAKeyringOrWithoutThePowerItSignsWith() throws Exception {
        assertThatThrownBy(() -> Keyring.required(null, "the executor")).hasMessageContaining(Keyring.PROPERTY + " is not set");
        assertThatThrownBy(() -> Keyring.required(dir.resolve("none").toString(), "the executor"))
                .hasMessageContaining("no such file");
        Path file = dir.resolve("keyring");
        Keyring.add(file, agent("acme"));
        assertThatThrownBy(() -> Keyring.required(file.toString(), "the executor", Power.RESULT))
                .hasMessageContaining("no key with the power 'result'");
        assertThat(Keyring.required(file.toString(), "an agent", Power.INTENT).keys()).hasSize(1);
    }

    @Test
    void theCliCreatesPrintsTheLineOnceListsWithoutSecretsAndRemoves() throws Exception {
        Path file = dir.resolve("keyring");
        String line = run(0, "create", "--file", file.toString(), "--power", "intent", "--power", "compensate",
                "--tenant", "acme", "--name", "booking-agent").trim();
        SigningKey created = SigningKey.parse(line);
        assertThat(created.powers()).containsExactlyInAnyOrder(Power.INTENT, Power.COMPENSATE);
        assertThat(Keyring.read(file)).containsExactly(created);

        String listed = run(0, "list", "--file", file.toString());
        assertThat(listed).contains(created.kid(), "intent,compensate", "acme", "booking-agent")
                .doesNotContain(line.split(":")[1]);
        run(2, "create", "--file", file.toString(), "--power", "intent", "--tenant", "acme"); // no --name
        run(2, "create", "--file", file.toString(), "--power", "sudo", "--tenant", "acme", "--name", "x");
        run(1, "remove", "--file", file.toString(), "knone");
        run(0, "remove", "--file", file.toString(), created.kid());
        assertThat(Keyring.read(file)).isEmpty();
    }

    private static String run(int expectedExit, String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            assertThat(KeysMain.run(List.of(args))).isEqualTo(expectedExit);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static String code(Verdict v) {
        return v instanceof Verdict.Refused r ? r.code() : "SIGNED";
    }
}
