package dev.toolonce.chaos.stack;

import dev.toolonce.security.kafka.KafkaClientSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import dev.toolonce.schemas.signing.Keyring;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The experiment's stack, every part its own OS process under its own {@code TOOLONCE_HOME}: PostgreSQL and Kafka
 * by {@code deploy/local/stack.sh infra-up} (what {@code ./toolonce up} runs), then the sandbox, the result
 * consumer, two relays (one publishes, the other is its warm standby) and two executors (or, for the unsafe baseline, two naive executors) started here from
 * their jars with the environment stack.sh gives them, so that each can be killed and restarted by PID. The
 * infrastructure faults are those an operator meets: SIGKILL of the postmaster or the broker, a clean restart of
 * either, then {@code stack.sh infra-up} on the same ports and data.
 */
public final class ChaosStack implements AutoCloseable {
    private static final String VERSION = "0.1.0-SNAPSHOT";
    private static final String PG_BIN = "/usr/lib/postgresql/15/bin";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Short lease and read timeouts, so that a zombie's lease runs out and a stall outlasts the timeout in seconds. */
    public static final Duration LEASE = Duration.ofSeconds(12);
    public static final Duration READ_TIMEOUT = Duration.ofSeconds(3);
    /** Every tool of toolonce-executor.yml: each one's timeouts must fit the short lease. */
    private static final List<String> TOOLS = List.of("payments", "tickets", "email", "counter", "noop");

    private final Path repo;
    private final Path home;
    private final Path keyring;
    private final Ports ports;
    private final boolean naive;
    private final KafkaClientSettings kafka;
    /** Added to every service JVM ({@code --jvm-option}). */
    private final List<String> jvmOptions;
    private final Map<String, String> infraEnv = new HashMap<>();
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    public final Service sandbox;
    public final Service consumer;
    /** The relays: for each source, the one that holds the slot publishes and the other stands by. */
    public final Service relay;
    public final Service relayStandby;
    /** The executor that stays up through the executor faults. */
    public final Service executorA;
    /** The executor that is armed, crashed, stopped and restarted. */
    public final Service executorB;
    /** What the experiment scrapes the services' meters with: a token of role scrape, in the stack's token file. */
    private final String scrapeToken;

    /**
     * @param naive start the naive baseline executor ({@code ChaosMain naive-executor}) in place of ToolOnce's
     * @param kafka the Kafka client settings of the naive executors (given to them as {@code --kafka-config})
     * @param jvmOptions added to every service JVM ({@code --jvm-option})
     */
    public ChaosStack(Path repo, Path home, Ports ports, boolean naive, KafkaClientSettings kafka,
                      List<String> jvmOptions) {
        this.repo = repo;
        this.home = home;
        this.ports = ports;
        this.naive = naive;
        this.kafka = kafka;
        this.jvmOptions = List.copyOf(jvmOptions);
        infraEnv.putAll(ports.stackEnv());
        infraEnv.put("TOOLONCE_HOME", home.toString());
        scrapeToken = StackTokens.scrape(home.resolve("tokens"));
        keyring = StackTokens.keyring(home.resolve("keyring"));
        Map<String, String> env = Map.of("TOOLONCE_PG_URL", jdbcUrl(), "KAFKA_BOOTSTRAP", kafkaBootstrap(),
                "SANDBOX_URL", sandboxUrl(), "TOOLONCE_HOME", home.toString());
        sandbox = service("sandbox-tools", "sandbox-tools", ports.sandbox(), env,
                List.of("--SANDBOX_PORT=" + ports.sandbox()));
        consumer = service("inbox-consumer", "inbox-consumer", ports.consumer(), env, List.of());
        // Without ToolOnce's executor there is no executor outbox (its migration creates the publication the relay
        // waits for): the baseline's relay carries the agent's outbox alone.
        List<String> relaySources = naive ? List.of(
                "--toolonce.relay.sources[0].name=agent", "--toolonce.relay.sources[0].jdbc-url=" + jdbcUrl(),
                "--toolonce.relay.sources[0].username=postgres", "--toolonce.relay.sources[0].slot=toolonce_agent_slot",
                "--toolonce.relay.sources[0].publication=toolonce_agent_outbox",
                "--toolonce.relay.sources[0].table=agent.outbox_event") : List.of();
        relay = service("outbox-relay", "outbox-relay", ports.relay(), env, relaySources);
        relayStandby = service("outbox-relay-b", "outbox-relay", ports.relayStandby(), env, relaySources);
        if (naive) {
            executorA = naiveExecutor("naive-executor-a", env);
            executorB = naiveExecutor("naive-executor-b", env);
        } else {
            executorA = service("tool-executor", "tool-executor", ports.executorA(), env, executorArgs());
            executorB = service("tool-executor-b", "tool-executor", ports.executorB(), env, executorArgs());
        }
    }

    private Service service(String name, String module, int port, Map<String, String> env, List<String> extra) {
        Map<String, String> own = new HashMap<>(env);
        own.put("SERVER_PORT", Integer.toString(port));
        List<String> args = new ArrayList<>(List.of("--server.port=" + port,
                "--toolonce.security.tokens-file=" + home.resolve("tokens"),
                "--toolonce.signing.keyring-file=" + keyring));
        args.addAll(extra);
        return new Service(name, jar(module), jvmOptions, own, args, "http://127.0.0.1:" + port + "/ready", home);
    }

    private Service naiveExecutor(String name, Map<String, String> env) {
        List<String> args = new ArrayList<>(List.of("naive-executor", "--pg-url", jdbcUrl(),
                "--kafka", kafkaBootstrap(), "--sandbox", sandboxUrl(), "--keyring", keyring.toString()));
        kafka.file().ifPresent(f -> args.addAll(List.of("--kafka-config", f.toAbsolutePath().toString())));
        return new Service(name, jar("chaos"), jvmOptions, env, args, null, home);
    }

    private static List<String> executorArgs() {
        List<String> args = new ArrayList<>(List.of("--toolonce.executor.lease=" + LEASE.toSeconds() + "s",
                "--toolonce.executor.heartbeat=2s"));
        for (String tool : TOOLS) {
            args.add("--toolonce.executor.tools." + tool + ".connect-timeout=1s");
            args.add("--toolonce.executor.tools." + tool + ".read-timeout=" + READ_TIMEOUT.toSeconds() + "s");
        }
        return args;
    }

    /**
     * The arguments that arm {@code point} on an executor: the fault-injection setting of tool-executor
     * ({@code toolonce.fault-injection.*}), or the naive executor's own {@code --crash-at}.
     */
    public List<String> crashArgs(String point) {
        return naive ? List.of("--crash-at", point) : faultInjectionArgs(point);
    }

    /**
     * The arguments that arm crash point {@code point} on tool-executor or the relay: both read
     * {@code toolonce.fault-injection.*}. The relay is the same in both modes.
     */
    public static List<String> faultInjectionArgs(String point) {
        return List.of("--toolonce.fault-injection.enabled=true", "--toolonce.fault-injection.crash-at=" + point);
    }

    /**
     * The arguments that arm the relay's crash point {@code point} so that it stays inert until
     * {@link #relayArmFile()} exists ({@code toolonce.fault-injection.arm-file}).
     */
    public List<String> relayCrashArgs(String point) {
        List<String> args = new ArrayList<>(faultInjectionArgs(point));
        args.add("--toolonce.fault-injection.arm-file=" + relayArmFile());
        return args;
    }

    /** The file whose creation makes an armed relay halt at its crash point. */
    public Path relayArmFile() {
        return home.resolve("relay-crash.arm");
    }

    public boolean naive() {
        return naive;
    }

    private Path jar(String module) {
        Path jar = repo.resolve(module).resolve("target").resolve(module + "-" + VERSION + "-exec.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build with mvn -B -DskipTests install");
        }
        return jar;
    }

    /** @return the stack's signing keys, which its services read and the workload signs with */
    public Keyring keyring() {
        return new Keyring(keyring);
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + ports.pg() + "/toolonce";
    }

    public String kafkaBootstrap() {
        return "127.0.0.1:" + ports.kafka();
    }

    public String sandboxUrl() {
        return "http://127.0.0.1:" + ports.sandbox();
    }

    /**
     * Service → its {@code /actuator/prometheus}: both executors (not the unsafe baseline's, which has none), the
     * relay and the result consumer.
     */
    /** @return {@code Bearer <token>} of role scrape for the services' {@code /actuator/prometheus} */
    public String scrapeAuthorization() {
        return "Bearer " + scrapeToken;
    }

    public Map<String, String> meterEndpoints() {
        Map<String, String> endpoints = new java.util.LinkedHashMap<>();
        if (!naive) {
            endpoints.put(executorA.name(), prometheus(ports.executorA()));
            endpoints.put(executorB.name(), prometheus(ports.executorB()));
        }
        endpoints.put(relay.name(), prometheus(ports.relay()));
        endpoints.put(relayStandby.name(), prometheus(ports.relayStandby()));
        endpoints.put(consumer.name(), prometheus(ports.consumer()));
        return endpoints;
    }

    private static String prometheus(int port) {
        return "http://127.0.0.1:" + port + "/actuator/prometheus";
    }

    public String executorUrl() {
        return "http://127.0.0.1:" + ports.executorA();
    }

    /** Starts everything: infrastructure, sandbox, consumer, relay, then both executors. */
    public void up() {
        stackSh("infra-up");
        for (Service s : all()) {
            System.out.printf("[chaos] starting %s%n", s.name());
            s.start();
        }
    }

    /** Restarts any service that is not running (a fault that went wrong), so that the next round starts whole. */
    public void reviveDead() {
        for (Service s : all()) {
            if (!s.alive()) {
                System.out.printf("[chaos] %s is not running: starting it again%n", s.name());
                s.start();
            }
        }
    }

    /**
     * The relay that publishes the results (the executor's outbox; the agent's in the baseline), by what its
     * {@code /ready} says; the first relay when neither says so (both down).
     */
    public Service publishingRelay() {
        String source = naive ? "agent" : "executor";
        for (Service r : relays()) {
            JsonNode ready = readyJson(r);
            for (JsonNode s : ready.path("sources")) {
                if (source.equals(s.path("name").asString("")) && "RUNNING".equals(s.path("state").asString(""))) {
                    return r;
                }
            }
        }
        return relay;
    }

    /** The relay that is not {@code r}. */
    public Service otherRelay(Service r) {
        return r == relay ? relayStandby : relay;
    }

    public List<Service> relays() {
        return List.of(relay, relayStandby);
    }

    private static JsonNode readyJson(Service s) {
        String body = s.readyBody();
        try {
            return body.isEmpty() ? JSON.missingNode() : JSON.readTree(body);
        } catch (RuntimeException e) {
            return JSON.missingNode();
        }
    }

    /**
     * In start order: the relays wait for the executor's outbox publication, which the executor's migration creates;
     * the first relay started takes the slots, the second stands by.
     */
    private List<Service> all() {
        return List.of(sandbox, executorA, executorB, consumer, relay, relayStandby);
    }

    /** Stops every service (SIGTERM) and then PostgreSQL and Kafka ({@code stack.sh down}). */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<Service> reversed = new ArrayList<>(all());
        java.util.Collections.reverse(reversed);
        reversed.forEach(Service::stop);
        stackSh("down");
    }

    // ------------------------------------------------------------------ infrastructure faults

    /**
     * SIGKILL of the postmaster, then a wait until it is gone and its children have exited. A new postmaster refuses to
     * start while the PID in its lock file exists, even as a zombie; {@code stack.sh} starts the postmaster under a
     * shell that reaps it at once (one started by {@code pg_ctl}, as {@link #restartPostgres} does, waits for PID 1).
     * Its children only need to have exited (a restart needs the shared memory free, and a zombie holds none).
     */
    public boolean killPostgres() {
        long pid = postmasterPid();
        ProcessHandle postmaster = ProcessHandle.of(pid).orElse(null);
        if (postmaster == null) {
            return false;
        }
        List<ProcessHandle> children = postmaster.children().toList();
        postmaster.destroyForcibly();
        awaitGone(List.of(postmaster));
        awaitExited(children);
        children.stream().filter(p -> !exited(p)).forEach(ProcessHandle::destroyForcibly);
        awaitExited(children);
        return true;
    }

    /** {@code pg_ctl restart -m fast}: sessions terminated, a checkpoint, start again. */
    public boolean restartPostgres() {
        Path data = pgData();
        List<String> command = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        command.addAll(List.of(PG_BIN + "/pg_ctl", "-D", data.toString(), "-l",
                data.getParent().resolve("postgres.log").toString(), "-m", "fast", "-w", "-t", "60", "restart"));
        Shell.run(command, Map.of(), home.resolve("logs").resolve("chaos-infra.log"), Duration.ofMinutes(2));
        return true;
    }

    /**
     * SIGKILL ({@code kill9}) or SIGTERM of the broker's JVM and a wait for its exit (60 s, then SIGKILL). Exited
     * means gone or a zombie: the broker was started by {@code stack.sh} under {@code nohup}, so its parent is PID 1,
     * which reaps it whenever it gets to it — up to 2 s later on these machines, where a supervisor that started it
     * would know at once. A zombie holds no port, no memory and no lock of the data directory (a file lock, released
     * at exit), so the restart need not wait for the reaping ({@link #killPostgres} must, for the postmaster).
     */
    public boolean stopKafka(boolean kill9) {
        ProcessHandle broker = ProcessHandle.of(Long.parseLong(read(home.resolve("run/kafka.pid")).trim())).orElse(null);
        if (broker == null) {
            return false;
        }
        if (kill9) {
            broker.destroyForcibly();
        } else {
            broker.destroy();
        }
        boolean stillAlive = Poll.until(() -> !exited(broker), alive -> !alive, Duration.ofSeconds(60),
                Duration.ofMillis(20));
        if (stillAlive) {
            broker.destroyForcibly();
            awaitGone(List.of(broker));
        }
        return true;
    }

    /** {@code stack.sh infra-up}: starts whatever of PostgreSQL and Kafka is down, then waits for PostgreSQL. */
    public void infraUp() {
        stackSh("infra-up");
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!pgAnswers()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("PostgreSQL did not answer on " + ports.pg() + " within 90 s");
            }
            Sleep.millis(200);
        }
    }

    /**
     * WAL the relay has not yet confirmed to its slots (current LSN − the furthest-behind slot's confirmed flush
     * LSN), in bytes: what the slots retain on its account, and it grows while the relay is down.
     */
    public long retainedWalBytes() {
        try (Connection c = DriverManager.getConnection(jdbcUrl(), "postgres", "");
             java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT coalesce(max(pg_wal_lsn_diff(pg_current_wal_lsn(), "
                     + "confirmed_flush_lsn)), 0)::bigint FROM pg_replication_slots WHERE slot_name IN ('toolonce_agent_slot'"
                     + (naive ? "" : ", 'toolonce_executor_slot'") + ")")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the slots' retained WAL", e);
        }
    }

    private boolean pgAnswers() {
        try (Connection c = DriverManager.getConnection(jdbcUrl(), "postgres", "")) {
            return c.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    private void stackSh(String command) {
        Path script = repo.resolve("deploy/local/stack.sh");
        try {
            Files.createDirectories(home.resolve("logs"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Shell.run(List.of(script.toString(), command), infraEnv, home.resolve("logs").resolve("chaos-infra.log"),
                Duration.ofMinutes(4));
    }

    private long postmasterPid() {
        return Long.parseLong(read(pgData().resolve("postmaster.pid")).lines().findFirst().orElseThrow().trim());
    }

    private Path pgData() {
        try {
            return home.resolve("pg").toRealPath().resolve("data");
        } catch (IOException e) {
            throw new UncheckedIOException("no PostgreSQL cluster under " + home, e);
        }
    }

    /** Waits until every process is gone (reaped: {@link ProcessHandle#isAlive} is true for a zombie). */
    private static void awaitGone(List<ProcessHandle> processes) {
        Poll.until(() -> processes.stream().anyMatch(ProcessHandle::isAlive), alive -> !alive, Duration.ofSeconds(30),
                Duration.ofMillis(20));
    }

    /** Waits until every process has exited: gone, or a zombie (which holds no memory, port or lock). */
    private static void awaitExited(List<ProcessHandle> processes) {
        Poll.until(() -> !processes.stream().allMatch(ChaosStack::exited), alive -> !alive, Duration.ofSeconds(30),
                Duration.ofMillis(20));
    }

    private static boolean exited(ProcessHandle process) {
        return !process.isAlive() || Service.procState(process.pid()) == 'Z';
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
