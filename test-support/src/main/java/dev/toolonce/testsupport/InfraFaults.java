package dev.toolonce.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Crashes and restarts of the PostgreSQL and Kafka processes of a {@link LocalStack}, the way an
 * operator would meet them: SIGKILL of the postmaster or of the broker's JVM, then
 * {@code stack.sh infra-up} (what {@code ./toolonce up} runs) to bring them back on the same ports
 * and data directories.
 */
final class InfraFaults {

  private static final Logger log = LoggerFactory.getLogger(InfraFaults.class);
  private static final Duration EXIT_WAIT = Duration.ofSeconds(30);
  private static final Duration ANSWER_WAIT = Duration.ofSeconds(90);
  private static final String PG_BIN = "/usr/lib/postgresql/15/bin";

  private final LocalStack local;
  private final Path home;
  private final Map<String, String> ports;

  InfraFaults(LocalStack local, Path home, Map<String, String> ports) {
    this.local = local;
    this.home = home;
    this.ports = Map.copyOf(ports);
  }

  /**
   * SIGKILL of the postmaster (pid from {@code postmaster.pid}), then waits until its former children
   * have noticed and exited: a backend still holding the shared memory would make the restart refuse.
   */
  synchronized void killPostgres() {
    long pid = postmasterPid();
    ProcessHandle postmaster = ProcessHandle.of(pid)
        .orElseThrow(() -> new IllegalStateException("postmaster pid " + pid + " is not running"));
    List<ProcessHandle> children = postmaster.children().toList();
    log.info("SIGKILL postgres postmaster {} ({} children)", pid, children.size());
    postmaster.destroyForcibly();
    awaitExit("postgres postmaster " + pid, List.of(postmaster));
    try {
      awaitExit("postgres children of " + pid, children);
    } catch (ConditionTimeoutException e) {
      // PostgreSQL's children watch the postmaster and exit; a restart needs them gone in any case.
      List<ProcessHandle> left = children.stream().filter(ProcessHandle::isAlive).toList();
      log.warn("postgres children {} outlived the postmaster by {}: SIGKILL", left, EXIT_WAIT);
      left.forEach(ProcessHandle::destroyForcibly);
      awaitExit("postgres children of " + pid, left);
    }
  }

  /** {@code stack.sh infra-up}: starts PostgreSQL (crash recovery included) if it is down, then awaits a query. */
  synchronized void startPostgres() {
    local.runStackSh("infra-up", Map.of(), home.resolve("infra-restart.log"), 3);
    await("postgres answers on " + ports.get("PG_PORT")).atMost(ANSWER_WAIT).pollInterval(Duration.ofMillis(200))
        .until(() -> LocalStack.pgAnswers(ports.get("PG_PORT")));
  }

  /** {@code pg_ctl restart -m fast} (as the {@code postgres} user when root): a clean restart. */
  synchronized void restartPostgres() {
    Path data = dataDir();
    List<String> command = new ArrayList<>();
    if ("root".equals(System.getProperty("user.name"))) {
      command.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    command.addAll(List.of(PG_BIN + "/pg_ctl", "-D", data.toString(),
        "-l", data.getParent().resolve("postgres.log").toString(), "-m", "fast", "-w", "-t", "60", "restart"));
    run(command, home.resolve("infra-restart.log"));
    await("postgres answers after a clean restart").atMost(ANSWER_WAIT).pollInterval(Duration.ofMillis(200))
        .until(() -> LocalStack.pgAnswers(ports.get("PG_PORT")));
  }

  /** SIGKILL of the broker's JVM (pid from {@code run/kafka.pid}, checked to be {@code kafka.Kafka}). */
  synchronized void killKafka() {
    ProcessHandle broker = kafkaProcess();
    log.info("SIGKILL kafka broker {}", broker.pid());
    broker.destroyForcibly();
    awaitExit("kafka broker " + broker.pid(), List.of(broker));
  }

  /** SIGTERM of the broker's JVM and a wait for its controlled shutdown (up to 60 s, then SIGKILL). */
  synchronized void stopKafka() {
    ProcessHandle broker = kafkaProcess();
    log.info("SIGTERM kafka broker {}", broker.pid());
    broker.destroy();
    try {
      await("kafka broker " + broker.pid() + " stops").atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200)).until(() -> !broker.isAlive());
    } catch (ConditionTimeoutException e) {
      log.warn("kafka broker {} did not stop within 60 s: SIGKILL", broker.pid());
      broker.destroyForcibly();
      awaitExit("kafka broker " + broker.pid(), List.of(broker));
    }
  }

  /** {@code stack.sh infra-up}: starts the broker (log recovery included) if it is down, then awaits its metadata. */
  synchronized void startKafka() {
    local.runStackSh("infra-up", Map.of(), home.resolve("infra-restart.log"), 3);
    await("kafka answers on " + ports.get("KAFKA_PORT")).atMost(ANSWER_WAIT).pollInterval(Duration.ofMillis(500))
        .until(() -> LocalStack.kafkaAnswers(ports.get("KAFKA_PORT")));
  }

  private ProcessHandle kafkaProcess() {
    long pid = Long.parseLong(read(home.resolve("run").resolve("kafka.pid")).trim());
    ProcessHandle broker = ProcessHandle.of(pid)
        .orElseThrow(() -> new IllegalStateException("kafka pid " + pid + " is not running"));
    // ProcessHandle.Info often has no arguments for a process this JVM did not start: read /proc.
    String cmd = read(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' ');
    if (!cmd.contains("kafka.Kafka")) {
      throw new IllegalStateException("pid " + pid + " from run/kafka.pid is not the broker: " + cmd);
    }
    return broker;
  }

  private long postmasterPid() {
    Path pidFile = dataDir().resolve("postmaster.pid");
    return Long.parseLong(read(pidFile).lines().findFirst()
        .orElseThrow(() -> new IllegalStateException(pidFile + " is empty")).trim());
  }

  private Path dataDir() {
    try {
      return home.resolve("pg").toRealPath().resolve("data");
    } catch (IOException e) {
      throw new UncheckedIOException("no PostgreSQL cluster under " + home, e);
    }
  }

  private static void awaitExit(String what, List<ProcessHandle> processes) {
    await(what + " exits").atMost(EXIT_WAIT).pollInterval(Duration.ofMillis(100))
        .until(() -> processes.stream().noneMatch(ProcessHandle::isAlive));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static void run(List<String> command, Path logFile) {
    try {
      Process p = new ProcessBuilder(command).directory(new File("/")).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
      if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IllegalStateException(command + " failed; " + logFile + ":\n" + LocalStack.tail(logFile, 20));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command, e);
    }
  }
}
