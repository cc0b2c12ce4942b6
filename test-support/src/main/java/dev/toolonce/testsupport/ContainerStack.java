package dev.toolonce.testsupport;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The integration tests' PostgreSQL 15 and Kafka broker as containers, started by Testcontainers against podman's
 * Docker-compatible API: the same two things {@link TestStack} starts as processes, for tests that never kill them.
 *
 * <p>The images are built here ({@code ./toolonce images --test-infra}, deploy/images/test-infra.sh) and never
 * pulled: no image registry is reachable from these machines. They stand in for the Docker Hub images that
 * Testcontainers' own {@link PostgreSQLContainer} and {@link KafkaContainer} expect ({@code postgres},
 * {@code apache/kafka}), whose environment and command conventions they follow.
 *
 * <p>Needs, in the test JVM's environment (Maven's {@code -Pcontainers} profile sets them):
 * <ul>
 *   <li>{@code DOCKER_HOST=unix://<socket>}: podman's API; {@link PodmanService} starts
 *       {@code podman system service} there if nothing answers;</li>
 *   <li>{@code TESTCONTAINERS_RYUK_DISABLED=true}: Ryuk's image cannot be pulled. Testcontainers then removes the
 *       containers in a JVM shutdown hook; containers of a JVM that was killed are removed by the next
 *       {@link #get()} (label {@value #JVM_LABEL}).</li>
 * </ul>
 *
 * <p>Ports are published on 127.0.0.1 only, to random host ports: PostgreSQL trusts every connection that reaches it.
 * Thread-safe; no method returns {@code null}.
 */
public final class ContainerStack {

  /** Built by deploy/images/test-infra.sh. */
  public static final String POSTGRES_IMAGE = "localhost/toolonce/test-postgres:15";
  /** Built by deploy/images/test-infra.sh. */
  public static final String KAFKA_IMAGE = "localhost/toolonce/test-kafka:4.1.2";
  /** Marks a container started by this class with the PID of the JVM that owns it. */
  static final String JVM_LABEL = "dev.toolonce.test-stack.jvm";

  private static final Logger log = LoggerFactory.getLogger(ContainerStack.class);
  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static ContainerStack instance;

  private final PostgreSQLContainer postgres;
  private final KafkaContainer kafka;
  private final long startMillis;

  private ContainerStack(PostgreSQLContainer postgres, KafkaContainer kafka, long startMillis) {
    this.postgres = postgres;
    this.kafka = kafka;
    this.startMillis = startMillis;
  }

  /**
   * Returns this JVM's container stack, starting both containers on the first call.
   *
   * @throws IllegalStateException if the environment lacks a setting, podman's API cannot be reached or started, an
   *     image is missing (the message names the command that builds it), or a container does not become ready
   */
  public static synchronized ContainerStack get() {
    if (instance == null) {
      instance = start();
    }
    return instance;
  }

  /** @return the JDBC URL of the {@code toolonce} database (user {@code postgres}, no password) */
  public String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + pgPort() + "/toolonce";
  }

  /** @return the PostgreSQL port on 127.0.0.1 */
  public int pgPort() {
    return postgres.getMappedPort(PostgreSQLContainer.POSTGRESQL_PORT);
  }

  /** @return the Kafka bootstrap address, the broker's advertised {@code host:port} */
  public String kafkaBootstrap() {
    return kafka.getBootstrapServers();
  }

  /** @return the container names, PostgreSQL's first */
  public List<String> containerNames() {
    return List.of(name(postgres), name(kafka));
  }

  /** @return how long the first {@link #get()} took to have both containers ready, in milliseconds */
  public long startMillis() {
    return startMillis;
  }

  // ------------------------------------------------------------------ start

  private static ContainerStack start() {
    long started = System.nanoTime();
    PodmanService.ensureAnswering(TestStack.findRepoRoot());
    DockerClient docker = DockerClientFactory.instance().client();
    removeContainersOfDeadJvms(docker);
    requireImage(docker, POSTGRES_IMAGE);
    requireImage(docker, KAFKA_IMAGE);
    PostgreSQLContainer postgres =
        new PostgreSQLContainer(DockerImageName.parse(POSTGRES_IMAGE).asCompatibleSubstituteFor("postgres"))
            .withUsername("postgres")
            .withDatabaseName("toolonce")
            // the Docker Hub image logs this twice (a server for its init scripts, then the real one); ours once
            .waitingFor(Wait.forLogMessage(".*database system is ready to accept connections.*\\s", 1));
    KafkaContainer kafka =
        new KafkaContainer(DockerImageName.parse(KAFKA_IMAGE).asCompatibleSubstituteFor("apache/kafka"));
    ours(postgres, "postgres");
    ours(kafka, "kafka");
    try {
      Startables.deepStart(postgres, kafka).join();
    } catch (CompletionException e) {
      // the logs first: stop() removes the containers, and their logs with them
      String logs = "\n--- postgres log ---\n" + tail(postgres) + "\n--- kafka log ---\n" + tail(kafka);
      postgres.stop();
      kafka.stop();
      throw new IllegalStateException("the test containers did not start: " + e.getCause().getMessage() + logs,
          e.getCause());
    }
    long millis = (System.nanoTime() - started) / 1_000_000;
    ContainerStack stack = new ContainerStack(postgres, kafka, millis);
    log.info("Container stack ready in {} ms: {} ({}), {} ({})", millis, stack.jdbcUrl(), name(postgres),
        stack.kafkaBootstrap(), name(kafka));
    return stack;
  }

  /**
   * Never pulled, named {@code tc-<what>-<pid>-<n>}, labelled with this JVM's PID, and published on 127.0.0.1 only.
   */
  private static void ours(GenericContainer<?> container, String what) {
    long pid = ProcessHandle.current().pid();
    container
        .withImagePullPolicy(image -> false)
        .withLabel(JVM_LABEL, Long.toString(pid))
        .withCreateContainerCmdModifier(cmd -> {
          cmd.withName("tc-" + what + "-" + pid + "-" + COUNTER.incrementAndGet());
          loopbackOnly(cmd);
        });
  }

  private static void loopbackOnly(CreateContainerCmd cmd) {
    PortBinding[] bindings = cmd.getHostConfig().getPortBindings().getBindings().keySet().stream()
        .map(port -> new PortBinding(Ports.Binding.bindIp("127.0.0.1"), port))
        .toArray(PortBinding[]::new);
    cmd.getHostConfig().withPortBindings(new Ports(bindings));
  }

  private static void requireImage(DockerClient docker, String image) {
    try {
      docker.inspectImageCmd(image).exec();
    } catch (NotFoundException e) {
      throw new IllegalStateException("image " + image + " is missing: build it with './toolonce images --test-infra'"
          + " (deploy/images/test-infra.sh); it cannot be pulled", e);
    }
  }

  /** Ryuk's job, done late: containers whose JVM no longer runs (killed before its shutdown hook ran). */
  private static void removeContainersOfDeadJvms(DockerClient docker) {
    List<Container> labelled = docker.listContainersCmd().withShowAll(true)
        .withLabelFilter(List.of(JVM_LABEL)).exec();
    for (Container c : labelled) {
      Map<String, String> labels = c.getLabels();
      long pid = Long.parseLong(labels.getOrDefault(JVM_LABEL, "0"));
      if (ProcessHandle.of(pid).isEmpty()) {
        log.info("Removing {} (its JVM, pid {}, is gone)", String.join(",", c.getNames()), pid);
        docker.removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(true).exec();
      }
    }
  }

  /** The Docker API reports a name as {@code /name}; podman looks names up without the slash. */
  private static String name(GenericContainer<?> container) {
    return container.getContainerName().replaceFirst("^/", "");
  }

  private static String tail(GenericContainer<?> container) {
    try {
      String logs = container.getLogs();
      return logs.length() > 4000 ? logs.substring(logs.length() - 4000) : logs;
    } catch (RuntimeException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }
}
