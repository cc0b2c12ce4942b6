package dev.toolonce.chaos.naive;

import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.security.kafka.KafkaClientSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The unsafe baseline: the pattern the protocol exists to replace, deliberately. A unique index on the call's key
 * ({@code INSERT … ON CONFLICT DO NOTHING}) decides whether an intent is new; a call found {@code STARTED} (its
 * executor died) is simply run again; a timeout, a dropped connection or a 5xx is retried blindly; no provider key
 * is sent. Offsets are committed after each batch. Its own process ({@code ChaosMain naive-executor --pg-url U
 * --kafka B --sandbox S [--crash-at P] [--kafka-config FILE]}; without {@code --kafka-config}, the file
 * {@code TOOLONCE_KAFKA_CONFIG} names, if any, gives its Kafka clients their security settings), so the experiment can kill it like the real executor; {@code --crash-at}
 * halts it ({@code Runtime.halt}, as SIGKILL) at {@code before-send}, {@code after-tool-before-record} or
 * {@code after-record}. Never use this anywhere else.
 */
public final class NaiveExecutor {
    static final String DDL = """
            CREATE SCHEMA IF NOT EXISTS naive;
            CREATE TABLE IF NOT EXISTS naive.call (call_key text PRIMARY KEY, tenant_id text NOT NULL,
                                                   state text NOT NULL, result text)
            """;
    static final String INSERT = "INSERT INTO naive.call (call_key, tenant_id, state) VALUES (?, ?, 'STARTED') "
            + "ON CONFLICT (call_key) DO NOTHING";
    static final String FIND = "SELECT state, result FROM naive.call WHERE call_key = ?";
    static final String DONE = "UPDATE naive.call SET state = 'DONE', result = ? WHERE call_key = ?";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int BLIND_RETRIES = 3;

    private final EventCodec codec = new EventCodec();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final String pgUrl;
    private final String sandbox;
    private final String crashAt;
    private final KafkaClientSettings kafkaSettings;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Keyring keyring;

    private NaiveExecutor(String pgUrl, String kafka, KafkaClientSettings kafkaSettings, String sandbox, String crashAt,
                          Keyring keyring) {
        this.pgUrl = pgUrl;
        this.keyring = keyring;
        this.sandbox = sandbox;
        this.crashAt = crashAt;
        this.kafkaSettings = kafkaSettings;
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(kafkaSettings.with(p), new ByteArraySerializer(), new ByteArraySerializer());
    }

    public static void main(List<String> args) throws Exception {
        String pg = arg(args, "--pg-url", null);
        String kafka = arg(args, "--kafka", null);
        String sandbox = arg(args, "--sandbox", null);
        String kafkaConfig = arg(args, "--kafka-config", "");
        KafkaClientSettings kafkaSettings = kafkaConfig.isEmpty() ? KafkaClientSettings.fromEnvironment(System.getenv())
                : KafkaClientSettings.load(Path.of(kafkaConfig));
        // It signs its results with the stack's executor key: the baseline differs from ToolOnce in what it does, not
        // in whether the consumer reads its answers.
        NaiveExecutor executor = new NaiveExecutor(pg, kafka, kafkaSettings, sandbox, arg(args, "--crash-at", ""),
                Keyring.required(arg(args, "--keyring", null), "the naive executor (--keyring)", Power.RESULT));
        try (Connection c = DriverManager.getConnection(pg, "postgres", ""); Statement st = c.createStatement()) {
            st.execute(DDL);
        }
        executor.run(kafka);
    }

    private void run(String kafka) throws SQLException {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "toolonce-naive-executor");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "20");
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "3000");
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(kafkaSettings.with(p), new ByteArrayDeserializer(), new ByteArrayDeserializer());
             Connection db = DriverManager.getConnection(pgUrl, "postgres", "")) {
            consumer.subscribe(List.of(Contract.INTENTS_TOPIC));
            System.out.println("naive executor " + ProcessHandle.current().pid() + " ready");
            while (true) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    handle(db, r);
                }
                try {
                    consumer.commitSync();
                } catch (CommitFailedException e) {
                    // the group moved on without us (a pause, a rebalance): the records come again elsewhere
                }
            }
        }
    }

    private void handle(Connection db, ConsumerRecord<byte[], byte[]> record) throws SQLException {
        ToolIntent intent;
        try {
            intent = codec.intent(codec.parse(record.value()));
        } catch (RuntimeException e) {
            return; // the naive executor skips what it cannot read
        }
        String key = intent.recordKey();
        boolean fresh;
        try (PreparedStatement st = db.prepareStatement(INSERT)) {
            st.setString(1, key);
            st.setString(2, intent.tenantId());
            fresh = st.executeUpdate() == 1;
        }
        if (!fresh) {
            try (PreparedStatement st = db.prepareStatement(FIND)) {
                st.setString(1, key);
                try (ResultSet rs = st.executeQuery()) {
                    if (rs.next() && "DONE".equals(rs.getString(1))) {
                        publish(intent, rs.getString(2), true);
                        return;
                    }
                }
            }
            // STARTED: whoever started it died; the naive executor just runs it again
        }
        reach("before-send");
        String result = callWithBlindRetry(intent);
        reach("after-tool-before-record");
        try (PreparedStatement st = db.prepareStatement(DONE)) {
            st.setString(1, result);
            st.setString(2, key);
            st.executeUpdate();
        }
        publish(intent, result, false);
        reach("after-record");
    }

    private String callWithBlindRetry(ToolIntent intent) {
        ObjectNode body = ((ObjectNode) intent.arguments()).deepCopy();
        String path = switch (intent.tool()) {
            case "payments" -> "/payments/charges";
            case "tickets" -> "/tickets";
            case "email" -> "/emails";
            default -> "/counter/apply";
        };
        if (intent.tool().equals("tickets")) {
            body.put("external_reference", intent.recordKey());
        }
        String last = "{\"error\":\"no attempt\"}";
        for (int attempt = 0; attempt <= BLIND_RETRIES; attempt++) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(sandbox + path))
                        .timeout(Duration.ofSeconds(3)).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() < 500) {
                    return r.body();
                }
                last = r.body();
            } catch (IOException e) {
                last = "{\"error\":\"" + e.getClass().getSimpleName() + "\"}"; // timeout or dropped: try again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return last;
    }

    private void publish(ToolIntent intent, String result, boolean replayed) {
        JsonNode node;
        try {
            node = JSON.readTree(result == null ? "null" : result);
        } catch (RuntimeException e) {
            node = JSON.getNodeFactory().textNode(result);
        }
        ToolResult r = new ToolResult(UUID.randomUUID().toString(), intent.messageId(), intent.tenantId(),
                intent.tool(), intent.operation(), intent.idempotencyKey(), hash(intent.arguments().toString()),
                intent.taskId(), intent.stepId(), 1, ResultStatus.COMMITTED, node.path("id").asString(null), node,
                null, 1, replayed, Instant.now().toString());
        ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(Contract.RESULTS_TOPIC,
                r.recordKey().getBytes(StandardCharsets.UTF_8), codec.write(r).getBytes(StandardCharsets.UTF_8));
        out.headers().add(Contract.CE_ID, r.messageId().getBytes(StandardCharsets.UTF_8));
        out.headers().add(Contract.CE_TYPE, Contract.RESULT_TYPE.getBytes(StandardCharsets.UTF_8));
        out.headers().add(Contract.SIGNATURE, keyring.sign(Power.RESULT, r.tenantId(), Contract.RESULT_TYPE,
                r.messageId(), out.value()).getBytes(StandardCharsets.UTF_8));
        try {
            producer.send(out).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot publish a result", e);
        }
    }

    private void reach(String point) {
        if (point.equals(crashAt)) {
            System.out.println("naive executor: crash point " + point + " reached, halting");
            Runtime.getRuntime().halt(137);
        }
    }

    private static String hash(String text) {
        try {
            return "sha256:" + HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String arg(List<String> args, String name, String fallback) {
        int i = args.indexOf(name);
        if (i >= 0 && i + 1 < args.size()) {
            return args.get(i + 1);
        }
        if (fallback == null) {
            throw new IllegalArgumentException("naive-executor needs " + name);
        }
        return fallback;
    }
}
