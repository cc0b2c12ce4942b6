package dev.toolonce.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL + Kafka run by {@code deploy/local/stack.sh} under one {@code TOOLONCE_HOME}:
 * reuses a live one, or starts one on free ports and stops it when the JVM exits.
 */
final class LocalStack {

  private static final Logger log = LoggerFactory.getLogger(LocalStack.class);
  private static final long START_TIMEOUT_MINUTES = 3;
  private static final long STOP_TIMEOUT_MINUTES = 1;

  private final Path repoRoot;
  private final Path home;

  LocalStack(Path repoRoot, Path home) {
    this.repoRoot = repoRoot;
    this.home = home.toAbsolutePath();
  }

  /** @return the contents of {@code ports.env} of a live stack (at least PG_PORT and KAFKA_PORT) */
  Map<String, String> reuseOrStart() {
    Map<String, String> ports = TestStack.readEnvFile(home.resolve("ports.env"));
    if (isAlive(ports)) {
      log.info("Reusing the test stack in {}: PostgreSQL on {}, Kafka on {}", home, ports.get("PG_PORT"), ports.get("KAFKA_PORT"));
      return ports;
    }
    start();
    ports = TestStack.readEnvFile(home.resolve("ports.env"));
    if (!isAlive(ports)) {
      throw new IllegalStateException("stack.sh infra-up succeeded but the stack in " + home
          + " does not answer; ports.env: " + ports + "\n" + tail(home.resolve("infra-up.log"), 40));
    }
    return ports;
  }

  private boolean isAlive(Map<String, String> ports) {
    if (!ports.containsKey("PG_PORT") || !ports.containsKey("KAFKA_PORT")) {
      return false;
    }
    return pidAlive("postgres") && pidAlive("kafka")
        && pgAnswers(ports.get("PG_PORT")) && kafkaAnswers(ports.get("KAFKA_PORT"));
  }

  private boolean pidAlive(String name) {
    Path pidFile = home.resolve("run").resolve(name + ".pid");
    try {
      long pid = Long.parseLong(Files.readString(pidFile).trim());
      return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    } catch (IOException | NumberFormatException e) {
      return false;
    }
  }

  static boolean pgAnswers(String port) {
    String url = "jdbc:postgresql://127.0.0.1:" + port + "/toolonce?connectTimeout=3&socketTimeout=5";
    try (Connection c = DriverManager.getConnection(url, "postgres", "");
         Statement s = c.createStatement()) {
      return s.execute("select 1");
    } catch (SQLException e) {
      return false;
    }
  }

  static boolean kafkaAnswers(String port) {
    try (Admin admin = Admin.create(Map.of(
        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port,
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3_000,
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000))) {
      return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return false;
    }
  }

  private void start() {
    Map<String, String> env = Map.of(
        "PG_PORT", String.valueOf(ServiceProcess.freePort()),
        "KAFKA_PORT", String.valueOf(ServiceProcess.freePort()),
        "KAFKA_CONTROLLER_PORT", String.valueOf(ServiceProcess.freePort()));
    log.info("Starting the test stack in {} with {}", home, env);
    long started = System.nanoTime();
    boolean ok = false;
    try {
      runStackSh("infra-up", env, home.resolve("infra-up.log"), START_TIMEOUT_MINUTES);
      ok = true;
    } finally {
      if (!ok) {
        // Do not leave a half-started stack (e.g. PostgreSQL up, Kafka failed) behind.
        stopQuietly();
      }
    }
    log.info("Test stack up in {} ms", (System.nanoTime() - started) / 1_000_000);
    if (!"1".equals(System.getenv("TOOLONCE_TEST_KEEP_STACK"))) {
      Runtime.getRuntime().addShutdownHook(new Thread(this::stopQuietly, "toolonce-test-stack-down"));
    }
  }

  private void stopQuietly() {
    try {
      runStackSh("infra-down", Map.of(), home.resolve("infra-down.log"), STOP_TIMEOUT_MINUTES);
    } catch (RuntimeException e) {
      System.err.println("[TestStack] infra-down failed: " + e.getMessage());
    }
  }

  void runStackSh(String command, Map<String, String> env, Path logFile, long timeoutMinutes) {
    Path script = repoRoot.resolve("deploy/local/stack.sh");
    try {
      Files.createDirectories(home);
      ProcessBuilder pb = new ProcessBuilder(List.of("bash", script.toString(), command))
          .directory(repoRoot.toFile())
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      pb.environment().putAll(env);
      pb.environment().put("TOOLONCE_HOME", home.toString());
      Process p = pb.start();
      if (!p.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw new IllegalStateException("stack.sh " + command + " did not finish within " + timeoutMinutes
            + " min; " + logFile + ":\n" + tail(logFile, 40));
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException("stack.sh " + command + " failed with exit code " + p.exitValue()
            + "; " + logFile + ":\n" + tail(logFile, 40));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + script, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running stack.sh " + command, e);
    }
  }

  static String tail(Path file, int lines) {
    return Optional.of(file).filter(Files::isRegularFile).map(f -> LogFiles.tail(f, lines)).orElse("(no log)");
  }
}
