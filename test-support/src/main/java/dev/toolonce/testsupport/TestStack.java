package dev.toolonce.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL 15 and a real Kafka broker for integration tests, each a separate OS process,
 * shared by every test in one JVM.
 *
 * <p>{@link #get()} resolves the stack once per JVM:
 * <ol>
 *   <li>if the environment variable {@code TOOLONCE_TEST_INFRA} is {@code containers}, both run as containers
 *       started by Testcontainers ({@link ContainerStack}; Maven's {@code -Pcontainers} profile provides what that
 *       needs). The fault methods then refuse: a test that kills a broker needs the processes;</li>
 *   <li>if the environment variables {@code TOOLONCE_TEST_PG_URL} and {@code TOOLONCE_TEST_KAFKA}
 *       are both set, they are used as they are and nothing is started;</li>
 *   <li>otherwise, if {@code <user.dir>/target/test-stack} holds a stack that is still alive (PID
 *       files and a real connection), it is reused;</li>
 *   <li>otherwise {@code deploy/local/stack.sh infra-up} starts one there on free ports, and a
 *       shutdown hook stops it when the JVM exits (unless {@code TOOLONCE_TEST_KEEP_STACK=1}).</li>
 * </ol>
 *
 * <p>All methods are thread-safe. No method returns {@code null} or accepts {@code null}.
 */
public final class TestStack {

  private static final Logger log = LoggerFactory.getLogger(TestStack.class);
  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static TestStack instance;

  private final String jdbcUrl;
  private final String kafkaBootstrap;
  private final int pgPort;
  private final Path repoRoot;
  /** Null when the stack is external (environment variables): nothing to kill then. */
  private final InfraFaults faults;

  private TestStack(String jdbcUrl, String kafkaBootstrap, Path repoRoot, InfraFaults faults) {
    this.jdbcUrl = jdbcUrl;
    this.kafkaBootstrap = kafkaBootstrap;
    this.pgPort = JdbcUrls.port(jdbcUrl);
    this.repoRoot = repoRoot;
    this.faults = faults;
  }

  /**
   * Returns this JVM's stack, starting or attaching to it on the first call.
   *
   * @return the stack, never {@code null}
   * @throws IllegalStateException if the stack cannot be started or reached (the message holds
   *     the tail of the start-up log)
   */
  public static synchronized TestStack get() {
    if (instance == null) {
      instance = resolve();
    }
    return instance;
  }

  /** @return the JDBC URL of the {@code toolonce} database (user {@code postgres}, no password) */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** @return the Kafka bootstrap address, {@code 127.0.0.1:<port>} */
  public String kafkaBootstrap() {
    return kafkaBootstrap;
  }

  /** @return the PostgreSQL TCP port */
  public int pgPort() {
    return pgPort;
  }

  /** @return the repository root: the nearest directory above {@code user.dir} holding {@code ./toolonce} */
  public Path repoRoot() {
    return repoRoot;
  }

  /**
   * Creates an empty database named {@code <prefix>_<counter>_<random>}.
   *
   * @param prefix a name prefix; characters other than {@code [a-z0-9_]} are replaced by {@code _}
   * @return the new database's JDBC URL (user {@code postgres}, no password)
   * @throws IllegalStateException if the database cannot be created
   */
  public String freshDatabase(String prefix) {
    String name = prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_")
        + "_" + COUNTER.incrementAndGet() + "_" + randomSuffix();
    try (Connection c = DriverManager.getConnection(jdbcUrl, "postgres", "");
         Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + name + " at " + jdbcUrl, e);
    }
    return JdbcUrls.withDatabase(jdbcUrl, name);
  }

  /**
   * A small connection pool on {@code jdbcUrl} (user {@code postgres}, no password) for a test's stores. A
   * {@code DriverManagerDataSource} opens a connection per statement, which made store contract tests spend most of
   * their time connecting; the pool keeps up to 24 and closes idle ones after 10 s, so that a test's database can be
   * left behind without holding connections to it.
   */
  public static javax.sql.DataSource pooled(String jdbcUrl) {
    com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setUsername("postgres");
    config.setPassword("");
    config.setMaximumPoolSize(24);
    config.setMinimumIdle(0);
    config.setIdleTimeout(10_000);
    return new com.zaxxer.hikari.HikariDataSource(config);
  }

  /**
   * Creates a topic with replication factor 1; does nothing if it already exists (whatever its
   * partition count).
   *
   * @throws IllegalStateException if the broker refuses or does not answer within 30 s
   */
  public void createTopic(String name, int partitions) {
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IllegalStateException("cannot create topic " + name, e.getCause());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topic " + name, e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("timed out creating topic " + name, e);
    }
  }

  /**
   * Creates a topic with a name no other call returns.
   *
   * @return the topic name, {@code <prefix>-<counter>-<random>}
   * @throws IllegalStateException as {@link #createTopic}
   */
  public String freshTopic(String prefix, int partitions) {
    String name = prefix + "-" + COUNTER.incrementAndGet() + "-" + randomSuffix();
    createTopic(name, partitions);
    return name;
  }

  // ------------------------------------------------------------------ infrastructure faults

  /**
   * Kills the PostgreSQL postmaster with SIGKILL (pid from {@code postmaster.pid} in the data
   * directory) and waits until it and its backends have exited. Every connection breaks; nothing is
   * flushed. Follow with {@link #startPostgres()}, in a {@code finally} block: the stack is shared.
   *
   * @throws IllegalStateException if the stack is external or PostgreSQL is not running
   */
  public void killPostgres() {
    local("kill PostgreSQL").killPostgres();
  }

  /**
   * Starts PostgreSQL again after {@link #killPostgres()} as {@code ./toolonce up} would
   * ({@code stack.sh infra-up}: {@code pg_ctl start}, as the {@code postgres} user when root; crash
   * recovery runs), on the same port and data directory, and waits until it answers a query. Does
   * nothing to a running server.
   *
   * @throws IllegalStateException if the stack is external or PostgreSQL does not come back within 90 s
   */
  public void startPostgres() {
    local("start PostgreSQL").startPostgres();
  }

  /**
   * Restarts PostgreSQL cleanly ({@code pg_ctl restart -m fast}: sessions terminated, checkpoint
   * written) and waits until it answers a query.
   *
   * @throws IllegalStateException if the stack is external or the restart fails
   */
  public void restartPostgres() {
    local("restart PostgreSQL").restartPostgres();
  }

  /**
   * Kills the Kafka broker's JVM with SIGKILL (pid from {@code run/kafka.pid}) and waits until it
   * has exited. Follow with {@link #startKafka()}, in a {@code finally} block.
   *
   * @throws IllegalStateException if the stack is external or the broker is not running
   */
  public void killKafka() {
    local("kill Kafka").killKafka();
  }

  /**
   * Starts the Kafka broker again ({@code stack.sh infra-up}, the same command line, ports and log
   * directory; log recovery runs) and waits until it answers a metadata request. Does nothing to a
   * running broker.
   *
   * @throws IllegalStateException if the stack is external or the broker does not come back within 90 s
   */
  public void startKafka() {
    local("start Kafka").startKafka();
  }

  /**
   * Stops the Kafka broker with SIGTERM (controlled shutdown) and starts it again as {@link #startKafka()}.
   *
   * @throws IllegalStateException as {@link #startKafka()}
   */
  public void restartKafka() {
    local("restart Kafka").stopKafka();
    startKafka();
  }

  private InfraFaults local(String what) {
    if (faults == null) {
      throw new IllegalStateException("cannot " + what + ": the test stack is external (TOOLONCE_TEST_INFRA="
          + "containers, or TOOLONCE_TEST_PG_URL and TOOLONCE_TEST_KAFKA); unset them to let the tests start their "
          + "own processes");
    }
    return faults;
  }

  private Admin admin() {
    return Admin.create(Map.of(
        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrap,
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
  }

  private static String randomSuffix() {
    return UUID.randomUUID().toString().substring(0, 8);
  }

  // ------------------------------------------------------------------ resolution

  /**
   * A stack over {@link ContainerStack}'s containers: the same JDBC URL and bootstrap address, and fault methods
   * that refuse.
   */
  static TestStack overContainers(ContainerStack containers) {
    return new TestStack(containers.jdbcUrl(), containers.kafkaBootstrap(), findRepoRoot(), null);
  }

  private static TestStack resolve() {
    Path root = findRepoRoot();
    String infra = System.getenv("TOOLONCE_TEST_INFRA");
    if ("containers".equals(infra)) {
      try {
        return overContainers(ContainerStack.get());
      } catch (NoClassDefFoundError e) {
        throw new IllegalStateException("TOOLONCE_TEST_INFRA=containers needs Testcontainers on the test classpath:"
            + " run Maven with -Pcontainers", e);
      }
    }
    if (infra != null && !infra.isBlank() && !"processes".equals(infra)) {
      throw new IllegalStateException("TOOLONCE_TEST_INFRA is '" + infra + "': 'processes' (the default) or"
          + " 'containers'");
    }
    String pgUrl = System.getenv("TOOLONCE_TEST_PG_URL");
    String kafka = System.getenv("TOOLONCE_TEST_KAFKA");
    if (pgUrl != null && !pgUrl.isBlank() && kafka != null && !kafka.isBlank()) {
      log.info("Using the external test stack: {} and {}", pgUrl, kafka);
      return new TestStack(pgUrl, kafka, root, null);
    }
    Path home = Path.of(System.getProperty("user.dir"), "target", "test-stack").toAbsolutePath();
    LocalStack local = new LocalStack(root, home);
    Map<String, String> ports = local.reuseOrStart();
    return new TestStack(
        "jdbc:postgresql://127.0.0.1:" + ports.get("PG_PORT") + "/toolonce",
        "127.0.0.1:" + ports.get("KAFKA_PORT"),
        root,
        new InfraFaults(local, home, ports));
  }

  static Path findRepoRoot() {
    Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("toolonce"))) {
        return dir;
      }
    }
    throw new IllegalStateException("no ./toolonce found in " + start + " or above");
  }

  /** Helpers for {@code jdbc:postgresql://host:port/db?params} URLs. */
  static final class JdbcUrls {
    private JdbcUrls() {}

    static int port(String url) {
      java.net.URI uri = java.net.URI.create(url.substring("jdbc:".length()));
      return uri.getPort() == -1 ? 5432 : uri.getPort();
    }

    static String withDatabase(String url, String database) {
      int hostStart = url.indexOf("//") + 2;
      int slash = url.indexOf('/', hostStart);
      int query = url.indexOf('?', hostStart);
      String base = slash == -1 ? (query == -1 ? url : url.substring(0, query)) : url.substring(0, slash);
      return base + "/" + database + (query == -1 ? "" : url.substring(query));
    }
  }

  /** Reads a {@code KEY=VALUE} file such as {@code ports.env}; missing file gives an empty map. */
  static Map<String, String> readEnvFile(Path file) {
    Map<String, String> values = new HashMap<>();
    if (!Files.isRegularFile(file)) {
      return values;
    }
    try {
      Properties p = new Properties();
      try (var in = Files.newBufferedReader(file)) {
        p.load(in);
      }
      p.forEach((k, v) -> values.put(k.toString(), v.toString().trim()));
      return values;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
