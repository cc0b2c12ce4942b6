package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.agent.publish.IntentRecords;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.security.kafka.KafkaClientSettings;
import dev.toolonce.testsupport.SecureKafka;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.TestStack;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * docs/security.md §6a end to end: the relay, the executor and the result consumer, each a separate process with a
 * SCRAM principal of its own and the test CA's truststore, run a demo workload through a broker that speaks only
 * SASL_SSL ({@link SecureKafka}) and grants each principal only the ACLs of §6a. The intents are produced by the
 * {@code agent} principal straight to Kafka (some redelivered) and through the agent's outbox (published by the
 * relay); every one must be answered exactly once and cause exactly one effect. Then the doors that must stay shut:
 * no credentials, wrong credentials, no trust in the CA, a known user without ACLs, the consumer writing intents.
 */
class SaslSslIT {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Duration START = Duration.ofSeconds(180);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final IntentRecords RECORDS = new IntentRecords("/test/sasl-agent", TestKeys.keyring());
    private static final IntentPublisher OUTBOX = new IntentPublisher("agent", Contract.INTENTS_TOPIC, "/test/sasl-agent",
            TestKeys.keyring());

    private static SecureKafka kafka;
    private static String jdbcUrl;
    private static String sandboxUrl;
    private static final List<ServiceProcess> services = new ArrayList<>();

    @BeforeAll
    static void startServicesOnTheSecureBroker() {
        TestStack infra = TestStack.get(); // its PostgreSQL; its plaintext broker is not used here
        kafka = SecureKafka.start();
        dropSlotsOfEarlierRuns(infra);
        jdbcUrl = infra.freshDatabase("saslssl");
        int sandboxPort = ServiceProcess.freePort();
        int executorPort = ServiceProcess.freePort();
        int consumerPort = ServiceProcess.freePort();
        int relayPort = ServiceProcess.freePort();
        sandboxUrl = "http://127.0.0.1:" + sandboxPort;
        Map<String, String> env = Map.of("TOOLONCE_PG_URL", jdbcUrl, "KAFKA_BOOTSTRAP", kafka.bootstrap(),
                "SANDBOX_URL", sandboxUrl);
        ServiceProcess sandbox = start("sasl-sandbox-tools", "dev.toolonce.sandbox.SandboxApplication",
                SystemStack.notAnAgent(env), List.of("--server.port=" + sandboxPort, "--SANDBOX_PORT=" + sandboxPort));
        ServiceProcess executor = start("sasl-tool-executor", "dev.toolonce.executor.ExecutorApplication",
                withSettings(SystemStack.notAnAgent(env), springKafka(SecureKafka.EXECUTOR)),
                List.of("--server.port=" + executorPort));
        ServiceProcess consumer = start("sasl-inbox-consumer", "dev.toolonce.consumer.ConsumerApplication",
                withSettings(env, springKafka(SecureKafka.CONSUMER)), List.of("--server.port=" + consumerPort));
        sandbox.awaitHttpOk(sandboxUrl + "/ready", START);
        executor.awaitHttpOk("http://127.0.0.1:" + executorPort + "/ready", START);
        consumer.awaitHttpOk("http://127.0.0.1:" + consumerPort + "/ready", START);
        // after the executor and the consumer: their migrations create the outbox publications the relay reads
        String run = jdbcUrl.substring(jdbcUrl.lastIndexOf('/') + 1).replaceAll("[^a-z0-9_]", "_");
        start("sasl-outbox-relay", "dev.toolonce.relay.RelayApplication",
                withSettings(SystemStack.notAnAgent(env), relayKafka(SecureKafka.RELAY)), List.of(
                        "--server.port=" + relayPort,
                        "--toolonce.relay.sources[0].name=executor", "--toolonce.relay.sources[0].jdbc-url=" + jdbcUrl,
                        "--toolonce.relay.sources[0].slot=" + run + "_executor",
                        "--toolonce.relay.sources[0].publication=toolonce_executor_outbox",
                        "--toolonce.relay.sources[0].table=executor.outbox_event",
                        "--toolonce.relay.sources[1].name=agent", "--toolonce.relay.sources[1].jdbc-url=" + jdbcUrl,
                        "--toolonce.relay.sources[1].slot=" + run + "_agent",
                        "--toolonce.relay.sources[1].publication=toolonce_agent_outbox",
                        "--toolonce.relay.sources[1].table=agent.outbox_event"))
                .awaitHttpOk("http://127.0.0.1:" + relayPort + "/ready", START);
    }

    @AfterAll
    static void stopAll() {
        for (int i = services.size() - 1; i >= 0; i--) {
            services.get(i).stop();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void theDemoWorkloadRunsThroughSaslSslEachIntentAnsweredOnceAndEachEffectOnce() throws Exception {
        Map<String, ToolIntent> direct = new LinkedHashMap<>();
        Map<String, ToolIntent> viaOutbox = new LinkedHashMap<>();
        List<String> tenants = List.of(tenant(), tenant());
        try (ResultWatcher results = new ResultWatcher(kafka.clientSettings(SecureKafka.ADMIN), Contract.RESULTS_TOPIC);
             KafkaProducer<byte[], byte[]> agent = producer(agentSettings())) {
            for (String tenant : tenants) {
                for (int i = 0; i < 15; i++) {
                    ToolIntent intent = i < 8 ? counter(tenant, "c" + i) : i < 12 ? payments(tenant, "p" + i)
                            : tickets(tenant, "t" + i);
                    String id = UUID.randomUUID().toString();
                    produce(agent, intent, id);
                    if (i < 3) {
                        produce(agent, intent, id); // the same record again: a redelivery
                    }
                    direct.put(id, intent);
                }
                for (int i = 0; i < 5; i++) {
                    ToolIntent intent = counter(tenant, "o" + i);
                    viaOutbox.put(publishThroughOutbox(intent), intent);
                }
            }
            Map<String, ToolIntent> all = new LinkedHashMap<>(direct);
            all.putAll(viaOutbox);

            results.awaitRecords(w -> all.keySet().stream().allMatch(w.byIntent::containsKey), WAIT);
            results.settle(Duration.ofSeconds(3)); // late duplicates get their chance to show up

            assertThat(all).hasSize(40);
            for (String id : all.keySet()) {
                assertThat(results.byIntent.get(id)).as("the answers to intent %s", id).hasSize(1)
                        .allSatisfy(r -> assertThat(r.status()).isEqualTo(ResultStatus.COMMITTED));
            }
            await("the consumer has taken in each answer once").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> {
                        for (String id : all.keySet()) {
                            assertThat(count("SELECT count(*) FROM agent.step_result_log WHERE intent_message_id = ?", id))
                                    .as("results of %s in the consumer's log", id).isEqualTo(1);
                        }
                        for (ToolIntent intent : viaOutbox.values()) {
                            assertThat(stepStatus(intent)).as("step %s", intent.stepId()).isEqualTo("COMMITTED");
                        }
                    });
            for (String tenant : tenants) {
                JsonNode effects = effects(tenant);
                assertThat(effects).as("one effect per key of %s", tenant).hasSize(20);
                for (JsonNode e : effects) {
                    assertThat(e.path("count").asLong()).as("effect %s", e.path("opId").asString()).isEqualTo(1);
                }
            }
            ToolResult any = results.byIntent.get(viaOutbox.keySet().iterator().next()).get(0);
            assertThat(any.externalObjectId()).isNotBlank();
        }
    }

    @Test
    void withoutCredentialsOrWithWrongOnesOrWithoutTrustInTheCaNothingIsProduced() throws Exception {
        String tenant = tenant();
        Map<String, Object> plaintext = Map.of("bootstrap.servers", kafka.bootstrap());
        assertThat(refusal(plaintext, counter(tenant, "plain")))
                .as("a client without TLS or SASL gets no metadata at all").isInstanceOf(TimeoutException.class);

        Map<String, Object> unknownUser = kafka.clientSettings("nobody", "whatever");
        assertThat(refusal(unknownUser, counter(tenant, "nobody"))).isInstanceOf(SaslAuthenticationException.class)
                .hasMessageContaining("invalid credentials");

        Map<String, Object> wrongPassword = kafka.clientSettings(SecureKafka.AGENT, "not-" + kafka.password(SecureKafka.AGENT));
        assertThat(refusal(wrongPassword, counter(tenant, "wrong"))).isInstanceOf(SaslAuthenticationException.class)
                .hasMessageContaining("invalid credentials");

        Map<String, Object> noTrust = new HashMap<>(kafka.clientSettings(SecureKafka.AGENT));
        noTrust.keySet().removeIf(k -> k.startsWith("ssl.truststore."));
        assertThat(refusal(noTrust, counter(tenant, "untrusting"))).as("the broker's certificate is the test CA's")
                .isInstanceOf(SslAuthenticationException.class);

        assertNothingArrivedFor(tenant);
    }

    @Test
    void aKnownPrincipalMayDoOnlyWhatItsAclsGrant() throws Exception {
        String tenant = tenant();
        assertThat(refusal(kafka.clientSettings(SecureKafka.INTRUDER), counter(tenant, "intruder")))
                .as("a user without ACLs writes no intent").isInstanceOf(TopicAuthorizationException.class)
                .hasMessageContaining(Contract.INTENTS_TOPIC);
        assertThat(refusal(kafka.clientSettings(SecureKafka.CONSUMER), counter(tenant, "consumer")))
                .as("the result consumer writes no intent").isInstanceOf(TopicAuthorizationException.class)
                .hasMessageContaining(Contract.INTENTS_TOPIC);

        Properties p = new Properties();
        p.putAll(kafka.clientSettings(SecureKafka.INTRUDER));
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "intruder-" + UUID.randomUUID());
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            c.assign(List.of(new TopicPartition(Contract.RESULTS_TOPIC, 0)));
            c.seekToBeginning(c.assignment());
            assertThat(catchThrowable(() -> c.poll(Duration.ofSeconds(10)))).as("a user without ACLs reads no result")
                    .isInstanceOf(TopicAuthorizationException.class);
        }

        assertNothingArrivedFor(tenant);
    }

    // ------------------------------------------------------------------ producing

    /** The one way this test produces an intent straight to Kafka (a signing step belongs here). */
    private static void produce(KafkaProducer<byte[], byte[]> producer, ToolIntent intent, String messageId)
            throws Exception {
        producer.send(RECORDS.record(intent, messageId)).get();
    }

    /** @return the broker's refusal of one intent produced with {@code settings}; fails when it is accepted */
    private static Throwable refusal(Map<String, Object> settings, ToolIntent intent) {
        Map<String, Object> s = new HashMap<>(settings);
        s.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        s.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 15_000);
        s.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        try (KafkaProducer<byte[], byte[]> producer = producer(s)) {
            Throwable t = catchThrowable(() -> produce(producer, intent, UUID.randomUUID().toString()));
            assertThat(t).as("producing %s with %s", intent.idempotencyKey(), s.get("sasl.jaas.config") == null
                    ? "no credentials" : "user " + user(s)).isNotNull();
            return t instanceof ExecutionException ? t.getCause() : t;
        }
    }

    private static KafkaProducer<byte[], byte[]> producer(Map<String, Object> settings) {
        Properties p = new Properties();
        p.putAll(settings);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** The agent's settings as an agent would keep them: a Kafka client file, read the way the bench reads one. */
    private static Map<String, Object> agentSettings() {
        Map<String, Object> s = new HashMap<>();
        KafkaClientSettings.load(kafka.clientConfigFile(SecureKafka.AGENT)).settings().forEach(s::put);
        s.put("bootstrap.servers", kafka.bootstrap());
        return s;
    }

    private static String publishThroughOutbox(ToolIntent intent) throws Exception {
        try (Connection c = DriverManager.getConnection(jdbcUrl, "postgres", "")) {
            c.setAutoCommit(false);
            String id = OUTBOX.publish(c, intent);
            c.commit();
            return id;
        }
    }

    /** No intent of {@code tenant} reached the intents topic (read as the admin, from the beginning). */
    private static void assertNothingArrivedFor(String tenant) {
        try (ResultWatcher intents = new ResultWatcher(kafka.clientSettings(SecureKafka.ADMIN), Contract.INTENTS_TOPIC)) {
            intents.settle(Duration.ofSeconds(3));
            assertThat(intents.records).as("records read from %s", Contract.INTENTS_TOPIC)
                    .noneMatch(r -> new String(r.key(), StandardCharsets.UTF_8).startsWith(tenant + "/"));
        }
    }

    // ------------------------------------------------------------------ the workload's intents
    // Task ids name the tenant, so that each intent's step is easy to tell apart in the agent's tables.

    private static String tenant() {
        return "sasl-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static ToolIntent counter(String tenant, String key) {
        ObjectNode args = JsonNodeFactory.instance.objectNode().put("opId", tenant + ":" + key).put("delta", 1);
        return new ToolIntent(null, tenant, "counter", "apply", key, args, "task-" + tenant + "-" + key, "1", null);
    }

    private static ToolIntent payments(String tenant, String key) {
        ObjectNode args = JsonNodeFactory.instance.objectNode().put("opId", tenant + ":" + key)
                .put("amount", 1200).put("currency", "EUR");
        return new ToolIntent(null, tenant, "payments", "charge", key, args, "task-" + tenant + "-" + key, "1", null);
    }

    private static ToolIntent tickets(String tenant, String key) {
        ObjectNode args = JsonNodeFactory.instance.objectNode().put("opId", tenant + ":" + key).put("title", "t " + key);
        return new ToolIntent(null, tenant, "tickets", "create", key, args, "task-" + tenant + "-" + key, "1", null);
    }

    // ------------------------------------------------------------------ reading what happened

    private static JsonNode effects(String tenant) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(
                URI.create(sandboxUrl + "/_ledger?opIdPrefix=" + tenant + ":")).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body()).path("effects");
    }

    private static long count(String sql, String param) throws Exception {
        try (Connection c = DriverManager.getConnection(jdbcUrl, "postgres", "");
             PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, param);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static String stepStatus(ToolIntent intent) throws Exception {
        try (Connection c = DriverManager.getConnection(jdbcUrl, "postgres", "");
             PreparedStatement ps = c.prepareStatement(
                     "SELECT status FROM agent.agent_step WHERE task_id = ? AND step_id = ? AND tenant_id = ?")) {
            ps.setString(1, intent.taskId());
            ps.setString(2, intent.stepId());
            ps.setString(3, intent.tenantId());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    // ------------------------------------------------------------------ the services' Kafka settings

    /** Spring Boot's standard Kafka settings (executor, inbox-consumer): SASL_SSL as {@code user}, the test CA trusted. */
    private static Map<String, String> springKafka(String user) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("spring.kafka.security.protocol", "SASL_SSL");
        s.put("spring.kafka.ssl.trust-store-location", "file:" + kafka.truststore());
        s.put("spring.kafka.ssl.trust-store-password", kafka.truststorePassword());
        s.put("spring.kafka.ssl.trust-store-type", "PKCS12");
        s.put("spring.kafka.properties[sasl.mechanism]", SecureKafka.MECHANISM);
        s.put("spring.kafka.properties[sasl.jaas.config]", jaas(user));
        return s;
    }

    /** The relay's {@code toolonce.relay.kafka-properties}: the same settings by their Kafka names. */
    private static Map<String, String> relayKafka(String user) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("toolonce.relay.kafka-properties[security.protocol]", "SASL_SSL");
        s.put("toolonce.relay.kafka-properties[sasl.mechanism]", SecureKafka.MECHANISM);
        s.put("toolonce.relay.kafka-properties[sasl.jaas.config]", jaas(user));
        s.put("toolonce.relay.kafka-properties[ssl.truststore.location]", kafka.truststore().toString());
        s.put("toolonce.relay.kafka-properties[ssl.truststore.password]", kafka.truststorePassword());
        s.put("toolonce.relay.kafka-properties[ssl.truststore.type]", "PKCS12");
        return s;
    }

    private static String jaas(String user) {
        return (String) kafka.clientSettings(user).get("sasl.jaas.config");
    }

    private static String user(Map<String, Object> settings) {
        String jaas = String.valueOf(settings.get("sasl.jaas.config"));
        int at = jaas.indexOf("username=\"") + "username=\"".length();
        return jaas.substring(at, jaas.indexOf('"', at));
    }

    /**
     * The settings reach the service as {@code SPRING_APPLICATION_JSON} (Spring's own environment source): secrets in
     * its environment, not on its command line.
     */
    private static Map<String, String> withSettings(Map<String, String> env, Map<String, String> settings) {
        Map<String, String> e = new HashMap<>(env);
        e.put("SPRING_APPLICATION_JSON", JSON.writeValueAsString(settings));
        return e;
    }

    private static ServiceProcess start(String name, String main, Map<String, String> env, List<String> args) {
        ServiceProcess p = ServiceProcess.start(name, main, env, args);
        services.add(p);
        return p;
    }

    /** Slot names are cluster-wide and outlive a run in a reused cluster: drop the inactive ones of earlier runs. */
    private static void dropSlotsOfEarlierRuns(TestStack infra) {
        try (Connection c = DriverManager.getConnection(infra.jdbcUrl(), "postgres", "");
             Statement st = c.createStatement()) {
            st.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots "
                    + "WHERE NOT active AND slot_name LIKE 'saslssl\\_%'");
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot drop the replication slots of earlier runs", e);
        }
    }
}
