package dev.toolonce.system;

import static org.awaitility.Awaitility.await;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.signing.SigningKey;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.TestTokens;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** What the system tests do to the stack: publish intents both ways, read steps and the sandbox ledger. */
final class Fixtures implements AutoCloseable {
    final SystemStack stack;
    final String tenant = "t-" + UUID.randomUUID().toString().substring(0, 8);
    private final EventCodec codec = new EventCodec();
    private final ObjectMapper mapper = new ObjectMapper();
    private final IntentPublisher publisher = new IntentPublisher("agent", Contract.INTENTS_TOPIC, "/test/agent", TestKeys.keyring());
    private final KafkaProducer<byte[], byte[]> producer;
    private final HttpClient http = HttpClient.newHttpClient();

    Fixtures(SystemStack stack) {
        this.stack = stack;
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.infra.kafkaBootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    ToolIntent counter(String key, String task, String step, long delta) {
        ObjectNode args = JsonNodeFactory.instance.objectNode().put("opId", tenant + ":" + key).put("delta", delta);
        return new ToolIntent(null, tenant, "counter", "apply", key, args, task, step, null);
    }

    ToolIntent payments(String key, long amount) {
        ObjectNode args = JsonNodeFactory.instance.objectNode().put("opId", tenant + ":" + key)
                .put("amount", amount).put("currency", "EUR");
        return new ToolIntent(null, tenant, "payments", "charge", key, args, "task-" + key, "1", null);
    }

    ToolIntent tickets(String key) {
        ObjectNode args = JsonNodeFactory.instance.objectNode().put("opId", tenant + ":" + key).put("title", "t " + key);
        return new ToolIntent(null, tenant, "tickets", "create", key, args, "task-" + key, "1", null);
    }

    ToolIntent email(String key) {
        ObjectNode args = JsonNodeFactory.instance.objectNode().put("opId", tenant + ":" + key)
                .put("to", key + "@example.com").put("subject", "hello");
        return new ToolIntent(null, tenant, "email", "send", key, args, "task-" + key, "1", null);
    }

    /** PUT /_faults/{tool} on the sandbox. */
    void faults(String tool, String json) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(stack.sandboxUrl + "/_faults/" + tool))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("faults for " + tool + " refused: " + r.body());
        }
    }

    /** DELETE /_faults: no faults, counters zeroed. */
    void clearFaults() throws Exception {
        http.send(HttpRequest.newBuilder(URI.create(stack.sandboxUrl + "/_faults")).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** GET /_faults → injected.{tool}.{kind}. */
    long injected(String tool, String kind) throws Exception {
        return getJson(stack.sandboxUrl + "/_faults").path("injected").path(tool).path(kind).asLong();
    }

    /**
     * Waits until the executor and the agent side have read the token file since {@code bearer} was added to it (they
     * re-read it within half a second): until then it is unknown (401).
     *
     * @return {@code bearer}
     */
    String loaded(String bearer) {
        for (String base : java.util.List.of(stack.executorUrl, stack.consumerUrl)) {
            await().atMost(java.time.Duration.ofSeconds(10)).until(() -> http.send(HttpRequest.newBuilder(
                    URI.create(base + "/api/v1/no-such-path")).header("Authorization", "Bearer " + bearer).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() != 401);
        }
        return bearer;
    }

    JsonNode getJson(String url) throws Exception {
        return mapper.readTree(get(url).body());
    }

    HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", TestTokens.adminHeader()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> postJson(String url, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .header("Authorization", TestTokens.adminHeader())
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Through the agent's outbox, in one committed JDBC transaction. @return the message id */
    String publish(ToolIntent intent) throws Exception {
        return publish(publisher, intent);
    }

    /** Through the agent's outbox with {@code with}, in one committed JDBC transaction. @return the message id */
    String publish(IntentPublisher with, ToolIntent intent) throws Exception {
        try (Connection c = DriverManager.getConnection(stack.jdbcUrl, "postgres", "")) {
            c.setAutoCommit(false);
            String id = with.publish(c, intent);
            c.commit();
            return id;
        }
    }

    /** A ready-made record straight to Kafka. */
    void produce(ProducerRecord<byte[], byte[]> record) throws Exception {
        producer.send(record).get();
    }

    /** Straight to the intents topic with CloudEvents headers. @return the message id */
    String send(ToolIntent intent) throws Exception {
        String id = UUID.randomUUID().toString();
        sendRecord(null, intent.recordKey(), codec.write(intent.withMessageId(id)).getBytes(StandardCharsets.UTF_8), id);
        return id;
    }

    /** Straight to the intents topic, signed by {@code signer} (a key the services may not hold). @return the message id */
    String sendSigned(ToolIntent intent, SigningKey signer) throws Exception {
        String id = UUID.randomUUID().toString();
        sendSigned(Contract.INTENTS_TOPIC, intent.recordKey(),
                codec.write(intent.withMessageId(id)).getBytes(StandardCharsets.UTF_8), id, signer);
        return id;
    }

    void sendRecord(Integer partition, String key, byte[] value, String ceId) throws Exception {
        send(Contract.INTENTS_TOPIC, partition, key, value, ceId);
    }

    void sendTo(String topic, String key, byte[] value, String ceId) throws Exception {
        send(topic, null, key, value, ceId);
    }

    /** Straight to {@code topic}, signed by {@code key} whatever the topic (a forgery, when it is the wrong key). */
    void sendSigned(String topic, String key, byte[] value, String ceId, SigningKey signer) throws Exception {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value);
        r.headers().add(Contract.CE_ID, ceId.getBytes(StandardCharsets.UTF_8));
        producer.send(TestKeys.sign(r, signer)).get();
    }

    private void send(String topic, Integer partition, String key, byte[] value, String ceId) throws Exception {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, partition,
                key.getBytes(StandardCharsets.UTF_8), value);
        if (ceId != null) {
            r.headers().add(Contract.CE_ID, ceId.getBytes(StandardCharsets.UTF_8));
            r.headers().add(Contract.CE_SPECVERSION, "1.0".getBytes(StandardCharsets.UTF_8));
            r.headers().add(Contract.CE_TYPE, Contract.INTENT_TYPE.getBytes(StandardCharsets.UTF_8));
        }
        // signed as its producer would: results by the executor's key, everything else by the agents'
        producer.send(TestKeys.sign(r, Contract.RESULTS_TOPIC.equals(topic) ? TestKeys.executor() : TestKeys.agents())).get();
    }

    /** The agent_step row as a column → value map; empty when absent. */
    Map<String, String> step(String task, String step) throws Exception {
        return row("SELECT * FROM agent.agent_step WHERE task_id = ? AND step_id = ?", task, step);
    }

    /** The first row of a query on the system database as a column → value map; empty when there is none. */
    Map<String, String> row(String sql, String... params) throws Exception {
        try (Connection c = DriverManager.getConnection(stack.jdbcUrl, "postgres", "");
             PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setString(i + 1, params[i]);
            }
            Map<String, String> row = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                        row.put(rs.getMetaData().getColumnName(i), rs.getString(i));
                    }
                }
            }
            return row;
        }
    }

    /** The sandbox's ledger entry for an opId: {@code count} and {@code requests}; null when none. */
    JsonNode effect(String opId) throws Exception {
        return effectWhere("opId", opId);
    }

    /**
     * The sandbox's ledger entry of a call scope ({@code tenant/tool/operation/key}, sent as {@code X-ToolOnce-Scope}),
     * for arguments that carry no opId; null when none.
     */
    JsonNode effectOfScope(String scope) throws Exception {
        return effectWhere("scope", scope);
    }

    private JsonNode effectWhere(String field, String value) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(stack.sandboxUrl + "/_ledger")).build(),
                HttpResponse.BodyHandlers.ofString());
        for (JsonNode e : mapper.readTree(r.body()).path("effects")) {
            if (value.equals(e.path(field).asString(null))) {
                return e;
            }
        }
        return null;
    }

    /**
     * How many times the sandbox charged for this opId, whatever the keys: the sum of its payments ledger entries'
     * counts (each key has an entry of its own).
     */
    int charges(String opId) throws Exception {
        int n = 0;
        for (JsonNode e : getJson(stack.sandboxUrl + "/_ledger?tool=payments").path("effects")) {
            if (opId.equals(e.path("opId").asString(null))) {
                n += e.path("count").asInt();
            }
        }
        return n;
    }

    /** The external ids of a transcript's tool answers ({@code TOOL ANSWERED: {…"externalObjectId":"…"}}), in order. */
    static java.util.List<String> answeredIds(String transcript) {
        java.util.List<String> ids = new java.util.ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "TOOL ANSWERED: .*?\"externalObjectId\":\"([^\"]+)\"").matcher(transcript);
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    ResultWatcher results() {
        return new ResultWatcher(stack.infra.kafkaBootstrap(), Contract.RESULTS_TOPIC);
    }

    @Override
    public void close() {
        producer.close();
    }
}
