package dev.toolonce.system;

import dev.toolonce.schemas.Contract;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestStack;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Every ToolOnce service as its own JVM (sandbox, executor, consumer, relay) against the test PostgreSQL
 * and Kafka broker, started once per test JVM on free ports and a fresh database. Tests isolate
 * themselves by tenant.
 */
final class SystemStack {
    private static SystemStack instance;

    final TestStack infra;
    final String jdbcUrl;
    final String sandboxUrl;
    final String relayUrl;
    final String executorUrl;
    final String consumerUrl;
    private final Map<String, String> env;
    private final List<String> relayArgs;
    ServiceProcess sandbox;
    ServiceProcess executor;
    ServiceProcess consumer;
    ServiceProcess relay;

    static synchronized SystemStack get() {
        if (instance == null) {
            instance = new SystemStack();
            Runtime.getRuntime().addShutdownHook(new Thread(instance::stopAll, "system-stack-stop"));
        }
        return instance;
    }

    private SystemStack() {
        infra = TestStack.get();
        for (String topic : List.of(Contract.INTENTS_TOPIC, Contract.RESULTS_TOPIC, "toolonce.agent-tasks")) {
            infra.createTopic(topic, 12);
        }
        for (String topic : List.of(Contract.INTENTS_DLQ_TOPIC, Contract.RESULTS_DLQ_TOPIC, "toolonce.relay.dlq",
                "toolonce.agent-tasks.dlq")) {
            infra.createTopic(topic, 3);
        }
        dropSlotsOfEarlierRuns(infra);
        jdbcUrl = infra.freshDatabase("system");
        int sandboxPort = ServiceProcess.freePort();
        int executorPort = ServiceProcess.freePort();
        int consumerPort = ServiceProcess.freePort();
        int relayPort = ServiceProcess.freePort();
        sandboxUrl = "http://127.0.0.1:" + sandboxPort;
        executorUrl = "http://127.0.0.1:" + executorPort;
        relayUrl = "http://127.0.0.1:" + relayPort;
        consumerUrl = "http://127.0.0.1:" + consumerPort;
        // the executor's console reaches the agent side's task API (inbox-consumer) for its task pages
        env = Map.of("TOOLONCE_PG_URL", jdbcUrl, "KAFKA_BOOTSTRAP", infra.kafkaBootstrap(), "SANDBOX_URL", sandboxUrl,
                "TOOLONCE_TASKS_URL", consumerUrl);
        // Slot names are cluster-wide and outlive a test run in a reused cluster: give this run its own.
        String run = jdbcUrl.substring(jdbcUrl.lastIndexOf('/') + 1).replaceAll("[^a-z0-9_]", "_");
        relayArgs = List.of("--server.port=" + relayPort,
                "--toolonce.relay.sources[0].name=executor", "--toolonce.relay.sources[0].jdbc-url=" + jdbcUrl,
                "--toolonce.relay.sources[0].slot=" + run + "_executor",
                "--toolonce.relay.sources[0].publication=toolonce_executor_outbox",
                "--toolonce.relay.sources[0].table=executor.outbox_event",
                "--toolonce.relay.sources[1].name=agent", "--toolonce.relay.sources[1].jdbc-url=" + jdbcUrl,
                "--toolonce.relay.sources[1].slot=" + run + "_agent",
                "--toolonce.relay.sources[1].publication=toolonce_agent_outbox",
                "--toolonce.relay.sources[1].table=agent.outbox_event");
        sandbox = start("sandbox-tools", "dev.toolonce.sandbox.SandboxApplication", sandboxPort, sandboxUrl);
        executor = start("tool-executor", "dev.toolonce.executor.ExecutorApplication", executorPort, executorUrl);
        consumer = start("inbox-consumer", "dev.toolonce.consumer.ConsumerApplication", consumerPort, consumerUrl);
        startRelay();
    }

    /**
     * Each run gets slots of its own (slot names are cluster-wide), and a reused test cluster would otherwise
     * collect them until {@code max_replication_slots} is reached: drop the inactive ones of earlier runs.
     */
    private static void dropSlotsOfEarlierRuns(TestStack infra) {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(infra.jdbcUrl(), "postgres", "");
             java.sql.Statement st = c.createStatement()) {
            st.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots "
                    + "WHERE NOT active AND slot_name LIKE 'system\\_%'");
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot drop the replication slots of earlier runs", e);
        }
    }

    /** (Re)starts the relay process and waits until its slots exist and its engines run. */
    void startRelay() {
        relay = ServiceProcess.start("outbox-relay", "dev.toolonce.relay.RelayApplication", notAnAgent(env), relayArgs)
                .awaitHttpOk(relayUrl + "/ready", Duration.ofSeconds(120));
    }

    private ServiceProcess start(String name, String main, int port, String url) {
        Map<String, String> serviceEnv = main.equals("dev.toolonce.consumer.ConsumerApplication") ? env : notAnAgent(env);
        return ServiceProcess.start(name, main, serviceEnv, List.of("--server.port=" + port, "--SANDBOX_PORT=" + port))
                .awaitHttpOk(url + "/ready", Duration.ofSeconds(120));
    }

    /** SIGKILLs the agent-side process (inbox-consumer: result consumer and task engine); nothing is flushed. */
    void killConsumer() {
        consumer.kill9();
    }

    /** Starts the agent-side process again on its port and waits until it is ready. */
    void startConsumer() {
        int port = Integer.parseInt(consumerUrl.substring(consumerUrl.lastIndexOf(':') + 1));
        consumer = start("inbox-consumer", "dev.toolonce.consumer.ConsumerApplication", port, consumerUrl);
    }

    /**
     * The services run on this module's test classpath, which holds the agent starter (for inbox-consumer): every
     * other service switches its auto-configuration off (toolonce.agent.enabled=false), as its own jar would not hold it.
     */
    static Map<String, String> notAnAgent(Map<String, String> env) {
        Map<String, String> e = new java.util.HashMap<>(env);
        e.put("TOOLONCE_AGENT_ENABLED", "false");
        return e;
    }

    private void stopAll() {
        for (ServiceProcess p : new ServiceProcess[] {relay, consumer, executor, sandbox}) {
            if (p != null) {
                p.stop();
            }
        }
    }
}
