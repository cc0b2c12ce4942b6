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
        for (String topic : List.of(Contract.INTENTS_TOPIC, Contract.RESULTS_TOPIC)) {
            infra.createTopic(topic, 12);
        }
        for (String topic : List.of(Contract.INTENTS_DLQ_TOPIC, Contract.RESULTS_DLQ_TOPIC, "toolonce.relay.dlq")) {
            infra.createTopic(topic, 3);
        }
        jdbcUrl = infra.freshDatabase("system");
        int sandboxPort = ServiceProcess.freePort();
        int executorPort = ServiceProcess.freePort();
        int consumerPort = ServiceProcess.freePort();
        int relayPort = ServiceProcess.freePort();
        sandboxUrl = "http://127.0.0.1:" + sandboxPort;
        executorUrl = "http://127.0.0.1:" + executorPort;
        relayUrl = "http://127.0.0.1:" + relayPort;
        env = Map.of("TOOLONCE_PG_URL", jdbcUrl, "KAFKA_BOOTSTRAP", infra.kafkaBootstrap(), "SANDBOX_URL", sandboxUrl);
        relayArgs = List.of("--server.port=" + relayPort);
        sandbox = start("sandbox-tools", "dev.toolonce.sandbox.SandboxApplication", sandboxPort, sandboxUrl);
        executor = start("tool-executor", "dev.toolonce.executor.ExecutorApplication", executorPort, executorUrl);
        consumer = start("inbox-consumer", "dev.toolonce.agent.ConsumerApplication", consumerPort,
                "http://127.0.0.1:" + consumerPort);
        startRelay();
    }

    /** (Re)starts the relay process and waits until its slots exist and its engines run. */
    void startRelay() {
        relay = ServiceProcess.start("outbox-relay", "dev.toolonce.relay.RelayApplication", env, relayArgs)
                .awaitHttpOk(relayUrl + "/ready", Duration.ofSeconds(120));
    }

    private ServiceProcess start(String name, String main, int port, String url) {
        return ServiceProcess.start(name, main, env, List.of("--server.port=" + port, "--SANDBOX_PORT=" + port))
                .awaitHttpOk(url + "/ready", Duration.ofSeconds(120));
    }

    private void stopAll() {
        for (ServiceProcess p : new ServiceProcess[] {relay, consumer, executor, sandbox}) {
            if (p != null) {
                p.stop();
            }
        }
    }
}
