package dev.toolonce.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka broker of a test's own, secured as docs/security.md §6a asks of a production one: a single-node KRaft broker
 * (a separate OS process, on the classpath {@code deploy/local/stack.sh kafka-classpath} resolves) whose only client
 * listener is {@code SASL_SSL} with {@value #MECHANISM}, its TLS material made by {@link TlsMaterial}; the
 * {@code StandardAuthorizer} with {@code allow.everyone.if.no.acl.found=false}, so a principal may do only what an ACL
 * grants it. The SCRAM users ({@link #USERS}, random passwords) are written at format time; the topics of the local
 * stack and the ACLs of §6a ({@link KafkaAcls}) are created through the Admin API as {@value #ADMIN}.
 *
 * <p>The controller listener is {@code PLAINTEXT} on loopback, where the broker registers with its own controller as
 * {@code User:ANONYMOUS}, which is therefore a super user: a test must reach the broker through {@link #bootstrap()}
 * (the client listener) only, never {@code bootstrap.controllers}.
 *
 * <p>{@link #start()} puts everything under {@code <user.dir>/target/secure-kafka/<id>}; {@link #close()} (also run by
 * a shutdown hook) stops the broker, SIGTERM then SIGKILL after 30 s. Thread-safe; no method accepts or returns
 * {@code null}.
 */
public final class SecureKafka implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SecureKafka.class);
  public static final String MECHANISM = "SCRAM-SHA-512";
  /** The super user: creates the topics and the ACLs, and is what the broker itself authenticates as. */
  public static final String ADMIN = "admin";
  public static final String RELAY = "relay";
  public static final String EXECUTOR = "executor";
  public static final String CONSUMER = "consumer";
  /** An agent that produces intents straight to Kafka. */
  public static final String AGENT = "agent";
  /** A known user with no ACL at all. */
  public static final String INTRUDER = "intruder";
  public static final List<String> USERS = List.of(ADMIN, RELAY, EXECUTOR, CONSUMER, AGENT, INTRUDER);
  /** The local stack's topics (stack.sh kafka_topics) and their partitions. */
  static final Map<String, Integer> TOPICS = topics();
  private static final Duration START_WAIT = Duration.ofSeconds(120);
  private static final Duration STOP_WAIT = Duration.ofSeconds(30);

  private final Path dir;
  private final int port;
  private final TlsMaterial tls;
  private final Map<String, String> passwords;
  private final Process broker;
  private final Path logFile;
  private final AtomicBoolean closed = new AtomicBoolean();

  private SecureKafka(Path dir, int port, TlsMaterial tls, Map<String, String> passwords, Process broker, Path logFile) {
    this.dir = dir;
    this.port = port;
    this.tls = tls;
    this.passwords = Map.copyOf(passwords);
    this.broker = broker;
    this.logFile = logFile;
  }

  /**
   * Generates the TLS material, formats and starts the broker, waits until {@value #ADMIN} can describe the cluster,
   * then creates the topics and the ACLs and waits until the broker enforces them (it lists them all).
   *
   * @throws IllegalStateException if a step fails; the message holds the tail of the relevant log
   */
  public static SecureKafka start() {
    long started = System.nanoTime();
    Path dir = Path.of(System.getProperty("user.dir"), "target", "secure-kafka", UUID.randomUUID().toString().substring(0, 8))
        .toAbsolutePath();
    TlsMaterial tls = TlsMaterial.generate(dir.resolve("tls"));
    Map<String, String> passwords = new LinkedHashMap<>();
    USERS.forEach(u -> passwords.put(u, TlsMaterial.randomSecret()));
    int port = ServiceProcess.freePort();
    int controller = ServiceProcess.freePort();
    String classpath = brokerClasspath(dir);
    Path config = writeServerProperties(dir, port, controller, tls, passwords.get(ADMIN));
    format(dir, classpath, config, passwords);
    Path logFile = dir.resolve("kafka.log");
    Process process = launch(classpath, config, logFile);
    SecureKafka kafka = new SecureKafka(dir, port, tls, passwords, process, logFile);
    Runtime.getRuntime().addShutdownHook(new Thread(kafka::close, "toolonce-secure-kafka-down"));
    try {
      kafka.awaitAnswers();
      kafka.createTopicsAndAcls();
    } catch (RuntimeException e) {
      kafka.close();
      throw e;
    }
    log.info("Secure Kafka (SASL_SSL, {}, ACLs) on {} in {} ms, files in {}", MECHANISM, kafka.bootstrap(),
        (System.nanoTime() - started) / 1_000_000, dir);
    return kafka;
  }

  /** @return {@code 127.0.0.1:<port>} of the SASL_SSL listener */
  public String bootstrap() {
    return "127.0.0.1:" + port;
  }

  /** @return the truststore (PKCS12) that holds the CA which signed the broker's certificate */
  public Path truststore() {
    return tls.truststore();
  }

  /** @return the truststore's password */
  public String truststorePassword() {
    return tls.truststorePassword();
  }

  /**
   * @return the SCRAM password of one of {@link #USERS}
   * @throws IllegalArgumentException for another name
   */
  public String password(String user) {
    String password = passwords.get(user);
    if (password == null) {
      throw new IllegalArgumentException("no SCRAM user " + user + "; the users are " + USERS);
    }
    return password;
  }

  /** @return the Kafka client settings of {@code user} with its own password: see {@link #clientSettings(String, String)} */
  public Map<String, Object> clientSettings(String user) {
    return clientSettings(user, password(user));
  }

  /**
   * @return the Kafka client settings that authenticate as {@code user} with {@code password} over TLS checked against
   *     {@link #truststore()}: {@code bootstrap.servers}, {@code security.protocol}, {@code sasl.*}, {@code ssl.truststore.*}
   */
  public Map<String, Object> clientSettings(String user, String password) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("bootstrap.servers", bootstrap());
    s.put("security.protocol", "SASL_SSL");
    s.put("sasl.mechanism", MECHANISM);
    s.put("sasl.jaas.config", jaas(user, password));
    s.put("ssl.truststore.type", "PKCS12");
    s.put("ssl.truststore.location", tls.truststore().toString());
    s.put("ssl.truststore.password", tls.truststorePassword());
    return s;
  }

  /**
   * Writes {@code user}'s settings, without {@code bootstrap.servers}, as a Kafka client {@code .properties} file
   * readable by its owner only: what {@code --kafka-config} of the bench and the chaos experiment reads.
   *
   * @return the file
   */
  public Path clientConfigFile(String user) {
    Map<String, Object> settings = new LinkedHashMap<>(clientSettings(user));
    settings.remove("bootstrap.servers");
    Properties p = new Properties();
    p.putAll(settings);
    Path file = dir.resolve("client-" + user + ".properties");
    try {
      Files.deleteIfExists(file);
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        p.store(w, "Kafka client settings of " + user + " (SecureKafka)");
      }
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /** @return the last {@code lines} lines of the broker's log */
  public String logTail(int lines) {
    return LogFiles.tail(logFile, lines);
  }

  /** Stops the broker: SIGTERM (controlled shutdown), SIGKILL after 30 s. Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    List<ProcessHandle> tree = new ArrayList<>(broker.descendants().toList());
    broker.destroy();
    try {
      if (!broker.waitFor(STOP_WAIT.toSeconds(), TimeUnit.SECONDS)) {
        log.warn("secure Kafka {} did not stop within {}: SIGKILL", broker.pid(), STOP_WAIT);
        broker.destroyForcibly();
        broker.waitFor(STOP_WAIT.toSeconds(), TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      broker.destroyForcibly();
    }
    tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }

  @Override
  public String toString() {
    return "SecureKafka[" + bootstrap() + ", pid " + broker.pid() + (broker.isAlive() ? "" : ", exited") + "]";
  }

  static String jaas(String user, String password) {
    return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
        + "\" password=\"" + password + "\";";
  }

  // ------------------------------------------------------------------ start-up

  private void awaitAnswers() {
    try {
      await("secure Kafka answers " + ADMIN + " on " + bootstrap()).atMost(START_WAIT)
          .pollInterval(Duration.ofMillis(500)).ignoreExceptionsMatching(e -> !(e instanceof IllegalStateException))
          .until(() -> {
            if (!broker.isAlive()) {
              throw new IllegalStateException("secure Kafka exited with code " + broker.exitValue()
                  + " during start-up:\n" + logTail(40));
            }
            try (Admin admin = admin()) {
              return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
            }
          });
    } catch (ConditionTimeoutException e) {
      throw new IllegalStateException("secure Kafka did not answer within " + START_WAIT + ":\n" + logTail(40), e);
    }
  }

  private void createTopicsAndAcls() {
    List<AclBinding> acls = KafkaAcls.of6a();
    try (Admin admin = admin()) {
      List<NewTopic> topics = TOPICS.entrySet().stream()
          .map(t -> new NewTopic(t.getKey(), t.getValue(), (short) 1)).toList();
      admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
      admin.createAcls(acls).all().get(60, TimeUnit.SECONDS);
      // ACLs travel through the metadata log: wait until the broker's authorizer lists every one
      await("the broker enforces " + acls.size() + " ACLs").atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> admin.describeAcls(AclBindingFilter.ANY).values().get(10, TimeUnit.SECONDS),
              (Collection<AclBinding> seen) -> seen.containsAll(acls));
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("cannot create the topics and ACLs on secure Kafka: " + e, e);
    }
  }

  private Admin admin() {
    Map<String, Object> s = clientSettings(ADMIN);
    s.put("request.timeout.ms", 10_000);
    s.put("default.api.timeout.ms", 30_000);
    return Admin.create(s);
  }

  /** {@code stack.sh kafka-classpath} with this broker's directory as TOOLONCE_HOME (the resolution is per checkout). */
  private static String brokerClasspath(Path dir) {
    Path repo = TestStack.findRepoRoot();
    Path out = dir.resolve("classpath.txt");
    run(List.of("bash", repo.resolve("deploy/local/stack.sh").toString(), "kafka-classpath"), repo, dir.resolve("home"),
        out, dir.resolve("classpath.log"), 5);
    try {
      String cp = Files.readString(out).trim();
      if (cp.isEmpty()) {
        throw new IllegalStateException("stack.sh kafka-classpath printed nothing; see " + dir.resolve("classpath.log"));
      }
      return cp;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path writeServerProperties(Path dir, int port, int controller, TlsMaterial tls, String adminPassword) {
    String client = "CLIENT";
    Map<String, String> p = new LinkedHashMap<>();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@127.0.0.1:" + controller);
    p.put("listeners", client + "://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controller);
    p.put("advertised.listeners", client + "://127.0.0.1:" + port);
    p.put("controller.listener.names", "CONTROLLER");
    p.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT," + client + ":SASL_SSL");
    p.put("inter.broker.listener.name", client);
    p.put("sasl.enabled.mechanisms", MECHANISM);
    p.put("sasl.mechanism.inter.broker.protocol", MECHANISM);
    p.put("listener.name.client.scram-sha-512.sasl.jaas.config", jaas(ADMIN, adminPassword));
    p.put("ssl.keystore.type", "PKCS12");
    p.put("ssl.keystore.location", tls.keystore().toString());
    p.put("ssl.keystore.password", tls.keystorePassword());
    p.put("ssl.key.password", tls.keystorePassword());
    p.put("ssl.truststore.type", "PKCS12");
    p.put("ssl.truststore.location", tls.truststore().toString());
    p.put("ssl.truststore.password", tls.truststorePassword());
    p.put("ssl.client.auth", "none");
    p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    p.put("allow.everyone.if.no.acl.found", "false");
    // the broker's own SCRAM identity, and its registration with its controller over the loopback PLAINTEXT listener
    p.put("super.users", "User:" + ADMIN + ";User:ANONYMOUS");
    p.put("log.dirs", dir.resolve("data").toString());
    p.put("num.partitions", "3");
    p.put("auto.create.topics.enable", "false");
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "3");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    Path file = dir.resolve("server.properties");
    StringBuilder text = new StringBuilder("# Written by SecureKafka (test-support)\n");
    p.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    try {
      Files.deleteIfExists(file);
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
    return file;
  }

  /** {@code StorageTool format} with one {@code --add-scram} per user: the credentials exist before the first start. */
  private static void format(Path dir, String classpath, Path config, Map<String, String> passwords) {
    String clusterId;
    do {
      clusterId = Uuid.randomUuid().toString();
    } while (clusterId.startsWith("-"));
    List<String> command = new ArrayList<>(List.of(java(), "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", classpath, "kafka.tools.StorageTool", "format",
        "-t", clusterId, "-c", config.toString()));
    passwords.forEach((user, password) -> command.addAll(List.of("--add-scram",
        MECHANISM + "=[name=" + user + ",password=" + password + "]")));
    run(command, dir, null, dir.resolve("format.log"), dir.resolve("format.log"), 2);
  }

  private static Process launch(String classpath, Path config, Path logFile) {
    try {
      return new ProcessBuilder(java(), "-Xms128m", "-Xmx512m", "-XX:+UseSerialGC",
          "-Dorg.slf4j.simpleLogger.showDateTime=true", "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
          "-cp", classpath, "kafka.Kafka", config.toString())
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the secure Kafka broker", e);
    }
  }

  private static void run(List<String> command, Path workDir, Path home, Path out, Path logFile, long minutes) {
    try {
      Files.createDirectories(workDir);
      ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(ProcessBuilder.Redirect.to(out.toFile()));
      if (out.equals(logFile)) {
        pb.redirectErrorStream(true);
      } else {
        pb.redirectError(ProcessBuilder.Redirect.to(logFile.toFile()));
      }
      if (home != null) {
        pb.environment().put("TOOLONCE_HOME", home.toString());
      }
      Process p = pb.start();
      if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw new IllegalStateException(command.get(0) + " did not finish within " + minutes + " min: " + logFile);
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command.subList(0, Math.min(command.size(), 3)))
            + "… failed with exit code " + p.exitValue() + ":\n" + LogFiles.tail(logFile, 30));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command.get(0), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command.get(0), e);
    }
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static Map<String, Integer> topics() {
    Map<String, Integer> t = new LinkedHashMap<>();
    for (String topic : List.of("toolonce.tool-intents", "toolonce.tool-results", "toolonce.agent-tasks")) {
      t.put(topic, 12);
    }
    for (String topic : List.of("toolonce.tool-intents.dlq", "toolonce.tool-results.dlq", "toolonce.relay.dlq",
        "toolonce.agent-tasks.dlq")) {
      t.put(topic, 3);
    }
    return Map.copyOf(t);
  }
}
