package dev.toolonce.chaos.stack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One ToolOnce service (or the naive baseline executor) as its own JVM started from its jar with the environment
 * {@code deploy/local/stack.sh} gives it, so that the experiment can SIGKILL, SIGSTOP and restart it by PID.
 * Its PID is written to {@code $TOOLONCE_HOME/run/<name>.pid}, so {@code ./toolonce down} stops what a crashed
 * experiment left behind. Not thread-safe: the experiment drives one fault at a time.
 */
public final class Service {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final Path jar;
    private final List<String> jvmOptions;
    private final Map<String, String> env;
    private final List<String> baseArgs;
    private final String readyUrl;
    private final Path runDir;
    private final Path logFile;
    private Process process;
    /** When the current process was seen to exit ({@link System#nanoTime()}), or 0 while it runs. */
    private volatile long exitedNanos;

    /**
     * @param jvmOptions added after the stack's own heap and GC options, before {@code -jar}
     * @param readyUrl GET answering 200 once the service works, or null for a service without HTTP (the naive
     *                 executor): it is then taken as ready once its log says {@code ready}
     */
    Service(String name, Path jar, List<String> jvmOptions, Map<String, String> env, List<String> baseArgs,
            String readyUrl, Path home) {
        this.name = name;
        this.jar = jar;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.env = Map.copyOf(env);
        this.baseArgs = List.copyOf(baseArgs);
        this.readyUrl = readyUrl;
        this.runDir = home.resolve("run");
        this.logFile = home.resolve("logs").resolve(name + ".log");
    }

    public String name() {
        return name;
    }

    /** Starts the JVM with the base arguments plus {@code extraArgs} and waits until it is ready (120 s). */
    public void start(List<String> extraArgs) {
        launch(extraArgs);
        awaitReady(Duration.ofSeconds(120), false);
    }

    /**
     * Starts the JVM armed with a crash point: it may halt at the point before it ever answers ready, which is
     * fine. Returns once it is ready or has exited.
     */
    public void startArmed(List<String> extraArgs) {
        launch(extraArgs);
        awaitReady(Duration.ofSeconds(120), true);
    }

    private void launch(List<String> extraArgs) {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is already running (pid " + process.pid() + ")");
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms64m", "-Xmx256m", "-XX:+UseSerialGC"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(baseArgs);
        command.addAll(extraArgs);
        try {
            Files.createDirectories(logFile.getParent());
            Files.createDirectories(runDir);
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            pb.environment().putAll(env);
            process = pb.start();
            exitedNanos = 0;
            Process started = process;
            started.onExit().thenRun(() -> {
                if (process == started) {
                    exitedNanos = System.nanoTime();
                }
            });
            Files.writeString(runDir.resolve(name + ".pid"), Long.toString(process.pid()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + " from " + jar, e);
        }
    }

    /** Starts it without extra arguments. */
    public void start() {
        start(List.of());
    }

    private void awaitReady(Duration timeout, boolean exitOk) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ready()) {
            if (!process.isAlive() && exitOk) {
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + " during start-up; see "
                        + logFile);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " not ready within " + timeout + "; see " + logFile);
            }
            Sleep.millis(250);
        }
    }

    private boolean ready() {
        if (readyUrl == null) {
            try {
                return Files.readString(logFile).contains("naive executor " + process.pid() + " ready");
            } catch (IOException e) {
                return false;
            }
        }
        HttpResponse<String> r = getReady();
        return r != null && r.statusCode() == 200;
    }

    /** GET of the ready URL; null when the service does not answer. */
    private HttpResponse<String> getReady() {
        try {
            HttpRequest r = HttpRequest.newBuilder(URI.create(readyUrl)).timeout(Duration.ofSeconds(2)).GET().build();
            return HTTP.send(r, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The body of its ready URL (200 or 503 alike), or an empty string when it does not answer. */
    public String readyBody() {
        if (readyUrl == null || !alive()) {
            return "";
        }
        HttpResponse<String> r = getReady();
        return r == null ? "" : r.body();
    }

    /** @return the running JVM's PID; throws if it is not running */
    public long pid() {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException(name + " is not running");
        }
        return process.pid();
    }

    public boolean alive() {
        return process != null && process.isAlive();
    }

    /**
     * SIGKILL and a wait for the exit.
     *
     * @return whether a live process was killed (an injection that happened)
     */
    public boolean kill9() {
        if (!alive()) {
            return false;
        }
        process.destroyForcibly();
        return waitExit(Duration.ofSeconds(30));
    }

    /** SIGTERM, 20 s grace, then SIGKILL. No-op when not running. */
    public void stop() {
        if (!alive()) {
            return;
        }
        process.destroy();
        if (!waitExit(Duration.ofSeconds(20))) {
            kill9();
        }
    }

    /**
     * Waits for the process to exit by itself (a crash point halting it).
     *
     * @return its exit status, or -1 if it was still running after {@code timeout}
     */
    public int awaitOwnExit(Duration timeout) {
        return waitExit(timeout) ? process.exitValue() : -1;
    }

    /**
     * When the process exited by itself ({@link System#nanoTime()} as the JVM's process reaper saw it), or {@code
     * fallback} when that is not known.
     */
    public long exitedNanos(long fallback) {
        long at = exitedNanos;
        return at == 0 ? fallback : at;
    }

    /** Sends a signal by PID ({@code kill -STOP}, {@code -CONT}); Java has no API for these. */
    public void signal(String signal) {
        Shell.run(List.of("kill", "-" + signal, Long.toString(pid())), Duration.ofSeconds(10));
    }

    /** @return the process state letter of {@code /proc/<pid>/stat} ('T' when stopped), or '?' */
    public char procState() {
        try {
            return procState(pid());
        } catch (RuntimeException e) {
            return '?';
        }
    }

    /** @return the state letter of {@code /proc/<pid>/stat} ('T' stopped, 'Z' exited and not yet reaped), or '?' */
    static char procState(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2);
        } catch (IOException | RuntimeException e) {
            return '?';
        }
    }

    private boolean waitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
