package dev.toolonce.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A user's own application, built the way its user builds it: the starter and the libraries under it installed into
 * the local Maven repository from this build's jars ({@code mvn install:install-file}, as {@code mvn install} would),
 * then the application's own {@code pom.xml} built by a separate Maven run, outside this reactor, in a copy under
 * {@code target/}.
 */
final class UserApplication {
    /** The starter and what it needs of this build, in dependency order; the parent POM goes first. */
    private static final List<String> STARTER_AND_BELOW = List.of("schemas", "core", "ledger-jdbc", "messaging", "security",
            "agent",
            "toolonce-agent-spring-boot-starter");
    private static final long MAVEN_MINUTES = 10;

    private final Path root;
    private final String version;

    /**
     * @param root    the repository's root (the ToolOnce parent POM)
     * @param version this build's version, as the modules' jars are named
     */
    UserApplication(Path root, String version) {
        this.root = root;
        this.version = version;
    }

    /** Installs the parent POM and the starter's modules, from the jars this build has packaged. */
    void installStarter(Path logs) {
        mvn(root, logs.resolve("install-toolonce-parent.log"), "-N", "install:install-file",
                "-Dfile=" + root.resolve("pom.xml"), "-DpomFile=" + root.resolve("pom.xml"));
        for (String module : STARTER_AND_BELOW) {
            Path jar = root.resolve(module).resolve("target").resolve(module + "-" + version + ".jar");
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException(jar + " is missing: this build has not packaged " + module);
            }
            mvn(root, logs.resolve("install-" + module + ".log"), "-N", "install:install-file", "-Dfile=" + jar,
                    "-DpomFile=" + root.resolve(module).resolve("pom.xml"));
        }
    }

    /**
     * Copies {@code examples/<name>} to {@code into} and packages it with its own pom.
     *
     * @return the application's executable jar
     */
    Path build(String name, Path into) {
        Path source = root.resolve("examples").resolve(name);
        copy(source, into);
        mvn(into, into.resolve("build.log"), "-Dtoolonce.version=" + version, "-DskipTests", "package");
        try (Stream<Path> jars = Files.list(into.resolve("target"))) {
            return jars.filter(p -> p.toString().endsWith(".jar") && !p.toString().endsWith("-plain.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("the build of " + name + " left no jar"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void mvn(Path dir, Path log, String... args) {
        List<String> command = new ArrayList<>(List.of("mvn", "-B", "-q"));
        command.addAll(List.of(args));
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            // a short build is mostly the JVM's start-up: the client compiler alone does it on less CPU
            pb.environment().merge("MAVEN_OPTS", "-XX:TieredStopAtLevel=1", (mine, added) -> mine + " " + added);
            Process p = pb.start();
            if (!p.waitFor(MAVEN_MINUTES, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + MAVEN_MINUTES
                        + " minutes; log: " + log);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " in " + dir + " exited "
                        + p.exitValue() + ":\n" + tail(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running Maven", e);
        }
    }

    private static void copy(Path from, Path to) {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files.filter(p -> !p.toString().contains("/target/"))::iterator) {
                Path t = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(f, t, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + from + " to " + to, e);
        }
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
