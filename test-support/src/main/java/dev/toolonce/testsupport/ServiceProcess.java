package dev.toolonce.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A service started as a separate JVM on the test's own classpath, so that a test can kill it
 * (SIGKILL) or stop it (SIGTERM) like a real deployment.
 *
 * <p>The command is {@code java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp <java.class.path> mainClass
 * args...}: the client compiler only, because a test's service starts many times and serves little, and so starts on
 * about half the CPU (measured: an executor's start took 20–23 CPU-s instead of 36–44 on 2 busy cores). Nothing a
 * test asserts depends on the compiler, and the figures {@code BenchSmokeIT} prints from these processes are a smoke's,
 * not results;
 * the given environment is added to the inherited one; stdout and stderr are appended to
 * {@code target/service-logs/<name>.log} (relative to {@code user.dir}). Processes still alive when
 * the test JVM exits are killed. No method accepts or returns {@code null}.
 */
public final class ServiceProcess implements AutoCloseable {

  private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();
  private static final Duration STOP_GRACE = Duration.ofSeconds(20);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(
        () -> RUNNING.forEach(Process::destroyForcibly), "toolonce-service-reaper"));
  }

  private final String name;
  private final Process process;
  private final Path logFile;

  private ServiceProcess(String name, Process process, Path logFile) {
    this.name = name;
    this.process = process;
    this.logFile = logFile;
  }

  /**
   * Starts {@code mainClass} in a new JVM.
   *
   * @param name names the log file; also used in error messages
   * @param env variables added to (or overriding) the inherited environment
   * @param args program arguments
   * @return the running process (not yet necessarily ready: see {@link #awaitHttpOk})
   * @throws UncheckedIOException if the process cannot be started
   */
  public static ServiceProcess start(String name, String mainClass, Map<String, String> env, List<String> args) {
    return launch(name, List.of("-cp", System.getProperty("java.class.path"), mainClass), env, args);
  }

  /**
   * Starts an application's own executable jar ({@code java -jar}) in a new JVM, as its user would run it.
   *
   * @param name names the log file; also used in error messages
   * @param jar the executable jar
   * @param env variables added to (or overriding) the inherited environment
   * @param args program arguments
   * @throws UncheckedIOException if the process cannot be started
   */
  public static ServiceProcess startJar(String name, Path jar, Map<String, String> env, List<String> args) {
    return launch(name, List.of("-jar", jar.toString()), env, args);
  }

  private static ServiceProcess launch(String name, List<String> what, Map<String, String> env, List<String> args) {
    Path logFile = Path.of(System.getProperty("user.dir"), "target", "service-logs", name + ".log");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1"));
    command.addAll(what);
    command.addAll(args);
    try {
      Files.createDirectories(logFile.getParent());
      ProcessBuilder pb = new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
      // Secure by default, tests included: every service reads this JVM's token file (toolonce.security.tokens-file,
      // by Spring's relaxed binding of the environment), unless the test says otherwise
      pb.environment().put("TOOLONCE_SECURITY_TOKENSFILE", TestTokens.file().toString());
      // and signs and checks every record with this JVM's keyring (toolonce.signing.keyring-file)
      pb.environment().put("TOOLONCE_SIGNING_KEYRINGFILE", TestKeys.file().toString());
      pb.environment().putAll(env);
      Process process = pb.start();
      RUNNING.add(process);
      process.onExit().thenRun(() -> RUNNING.remove(process));
      return new ServiceProcess(name, process, logFile);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + " (" + String.join(" ", what) + ")", e);
    }
  }

  /** @return the OS process id */
  public long pid() {
    return process.pid();
  }

  /**
   * Polls {@code url} with GET until it answers 200.
   *
   * @return this
   * @throws IllegalStateException if the process exits first or {@code timeout} passes; the
   *     message holds the last 40 log lines
   */
  public ServiceProcess awaitHttpOk(String url, Duration timeout) {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).GET().build();
    try {
      await(name + " answers 200 at " + url).atMost(timeout)
          .pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
          .until(() -> {
            if (!process.isAlive()) {
              throw new IllegalStateException(name + " exited with code " + process.exitValue()
                  + " before " + url + " answered 200; last log lines:\n" + logTail(40));
            }
            return answers200(request);
          });
    } catch (ConditionTimeoutException e) {
      throw new IllegalStateException(name + " did not answer 200 at " + url + " within " + timeout
          + "; last log lines:\n" + logTail(40), e);
    }
    return this;
  }

  private boolean answers200(HttpRequest request) {
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false; // not listening yet
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + name, e);
    }
  }

  /** Sends SIGKILL and waits until the process has exited. */
  public void kill9() {
    process.destroyForcibly();
    waitForExit(Duration.ofSeconds(30));
  }

  /** Sends SIGTERM, waits up to 20 s for a graceful exit, then SIGKILL. No-op if already exited. */
  public void stop() {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    if (!waitForExit(STOP_GRACE)) {
      kill9();
    }
  }

  /** @return whether the process is still running */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** @return the last {@code lines} lines of this service's log file */
  public String logTail(int lines) {
    return LogFiles.tail(logFile, lines);
  }

  /** Same as {@link #stop()}. */
  @Override
  public void close() {
    stop();
  }

  /**
   * Picks a port below the kernel's ephemeral range (20000 up to its start) when it can. A port
   * inside that range can be taken by a client socket that connects to itself while nobody listens
   * there yet (TCP simultaneous open), and the server started later then fails to bind.
   *
   * @return a TCP port on 127.0.0.1 that was free a moment ago (another process may still take it)
   * @throws UncheckedIOException if no port can be bound
   */
  public static int freePort() {
    int low = 20_000;
    int high = Math.min(ephemeralRangeStart(), 32_768);
    for (int attempt = 0; attempt < 50 && high - low > 100; attempt++) {
      int port = low + ThreadLocalRandom.current().nextInt(high - low);
      if (canBind(port)) {
        return port;
      }
    }
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port", e);
    }
  }

  private static boolean canBind(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int ephemeralRangeStart() {
    try {
      // Not Files.readString: /proc files report size 0 and it returns a truncated string.
      String line = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0);
      return Integer.parseInt(line.trim().split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return 32_768;
    }
  }

  private boolean waitForExit(Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !process.isAlive();
    }
  }

  @Override
  public String toString() {
    return name + "[pid " + pid() + (isAlive() ? "" : ", exited") + "]";
  }
}
