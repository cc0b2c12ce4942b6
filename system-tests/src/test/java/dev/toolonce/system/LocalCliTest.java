package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./toolonce tokens} and {@code ./toolonce keys} as a user runs them, each a process of its own on the jars the
 * build made: a CLI whose classpath misses a module fails here, not on a user's first {@code ./toolonce up}
 * (TokensMain needed the schemas jar once the token file's format moved there, and the local stack could not create
 * its admin token).
 */
class LocalCliTest {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();

    @TempDir
    Path home;

    @Test
    void tokensAreCreatedOnceListedWithoutSecretsAndRevoked() throws Exception {
        Result created = run("tokens", "create", "--role", "operator", "--tenant", "acme", "--name", "cli-alice");
        assertThat(created.exit).as(created.err).isZero();
        String token = created.out.trim();
        assertThat(token).matches("tot_[0-9a-f]{12}_[A-Za-z0-9_-]{43}");
        Result listed = run("tokens", "list");
        assertThat(listed.out).contains("cli-alice", "operator", "acme").doesNotContain(token.substring(18));
        String id = token.substring(4, 16);
        assertThat(run("tokens", "revoke", id).exit).isZero();
        assertThat(run("tokens", "revoke", id).exit).as("revoked already").isEqualTo(1);
        assertThat(run("tokens", "create", "--role", "nobody", "--tenant", "acme").exit).isEqualTo(2);
    }

    @Test
    void signingKeysAreCreatedOnceListedWithoutSecretsAndRemoved() throws Exception {
        Result created = run("keys", "create", "--power", "intent", "--power", "task", "--tenant", "acme",
                "--name", "cli-agent");
        assertThat(created.exit).as(created.err).isZero();
        String[] line = created.out.trim().split(":");
        assertThat(line).hasSize(5);
        assertThat(Files.readString(home.resolve("keyring"))).contains(line[0]);
        Result listed = run("keys", "list");
        assertThat(listed.out).contains(line[0], "intent,task", "acme", "cli-agent").doesNotContain(line[1]);
        assertThat(run("keys", "remove", line[0]).exit).isZero();
        assertThat(run("keys", "remove", line[0]).exit).isEqualTo(1);
        assertThat(run("keys", "create", "--power", "root", "--tenant", "acme", "--name", "x").exit).isEqualTo(2);
    }

    private record Result(int exit, String out, String err) {
    }

    private Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("toolonce").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(ROOT.toFile());
        pb.environment().put("TOOLONCE_HOME", home.toString());
        Path out = home.resolve("out.txt");
        Path err = home.resolve("err.txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the CLI ended").isTrue();
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
