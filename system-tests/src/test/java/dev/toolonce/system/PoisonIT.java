package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.schemas.signing.SigningKey;
import dev.toolonce.testsupport.HostileJson;
import dev.toolonce.testsupport.TestKeys;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Issue 7, poison isolation through the real pipeline (every service its own process): a record with a huge
 * number, a result with a NUL in its taskId, and a stream of generated hostile records each followed by a
 * valid one on the same partition. Every record must be processed or dead-lettered alone, accounted for by its
 * own Kafka coordinates (the consumer's inbox row, or the DLQ's original-offset header, or the dead-letter row
 * in {@code step_result_log}), and the valid record after it must still be processed.
 */
class PoisonIT {
    /** One step, as a task event carries at least one (agent-task.v1.json). */
    private static final String STEP = "{\"stepId\":\"s1\",\"tool\":\"counter\",\"operation\":\"apply\","
            + "\"idempotencyKey\":\"acme:t:s1:1\",\"state\":\"RUNNING\",\"compensable\":false,\"irreversible\":false,"
            + "\"needsApproval\":false,\"publishes\":1}";
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int PARTITION = 5;
    private static final int MAX_SENT_BYTES = 200_000;

    private Fixtures f;
    private ResultWatcher results;
    private KafkaProducer<byte[], byte[]> producer;

    @BeforeEach
    void setUp() {
        f = new Fixtures(SystemStack.get());
        results = f.results();
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, f.stack.infra.kafkaBootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1_048_576);
        producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @AfterEach
    void tearDown() {
        producer.close();
        results.close();
        f.close();
    }

    @Test
    void anIntentWithAnExponentInTheBillionsIsDeadLetteredAndTheNextIntentOnItsPartitionIsAnswered() throws Exception {
        String key = "huge-" + UUID.randomUUID();
        byte[] huge = HostileJson.intentWith(f.tenant, key, "arguments.x", "1e1000000000").getBytes(StandardCharsets.UTF_8);
        RecordMetadata poison = send(Contract.INTENTS_TOPIC, f.tenant + "/counter/apply/" + key, huge, "m-" + key);
        ToolIntent valid = f.counter("after-huge", "task-huge", "1", 1);
        String validId = UUID.randomUUID().toString();
        send(Contract.INTENTS_TOPIC, valid.recordKey(), json(valid.withMessageId(validId)), validId);

        assertThat(results.awaitResult(validId, WAIT)).first().extracting(ToolResult::status)
                .isEqualTo(ResultStatus.COMMITTED);
        try (ResultWatcher dlq = new ResultWatcher(f.stack.infra.kafkaBootstrap(), Contract.INTENTS_DLQ_TOPIC)) {
            ConsumerRecord<byte[], byte[]> dead = awaitDeadLetter(dlq, poison);
            assertThat(header(dead, Contract.DLQ_ERROR_CODE)).isEqualTo("INPUT_OUT_OF_BOUNDS");
            assertThat(header(dead, Contract.DLQ_ERROR_MESSAGE)).contains("/arguments/x");
            assertThat(dead.value()).isEqualTo(huge);
        }
        assertThat(f.effect(f.tenant + ":after-huge").path("count").asLong()).isEqualTo(1);
    }

    @Test
    void aResultWithANulInItsTaskIdIsDeadLetteredAndRecordedAndTheNextResultIsApplied() throws Exception {
        String key = "nul-" + UUID.randomUUID();
        String poisonId = "r-" + key;
        byte[] nul = HostileJson.resultWith(f.tenant, key, "taskId", "\"task\\u0000-7\"").getBytes(StandardCharsets.UTF_8);
        RecordMetadata poison = send(Contract.RESULTS_TOPIC, f.tenant + "/counter/apply/" + key, nul, poisonId);
        String laterId = "r-later-" + key;
        byte[] later = HostileJson.resultWith(f.tenant, "later-" + key, "taskId", "\"task-later\"").getBytes(StandardCharsets.UTF_8);
        RecordMetadata next = send(Contract.RESULTS_TOPIC, f.tenant + "/counter/apply/later-" + key, later, laterId);

        await().atMost(WAIT).until(() -> processed(next));
        assertThat(loggedResult(laterId)).as("the result after the poison was applied or logged").isTrue();
        await().atMost(WAIT).until(() -> deadLetterRow(poison) != null);
        assertThat(deadLetterRow(poison)).contains("SCHEMA_INVALID").contains("/taskId").contains(poisonId);
        try (ResultWatcher dlq = new ResultWatcher(f.stack.infra.kafkaBootstrap(), Contract.RESULTS_DLQ_TOPIC)) {
            assertThat(header(awaitDeadLetter(dlq, poison), Contract.DLQ_ERROR_CODE)).isEqualTo("SCHEMA_INVALID");
        }
    }

    /**
     * Issue 19: a task event the executor's task-hold consumer cannot store (a NUL in an id, an id longer than the
     * schema allows) used to fail its batch for ever, holding every task event behind it while readiness stayed UP.
     * On the shared error path it is dead-lettered alone, and the task event after it on the same partition holds its
     * task.
     */
    @Test
    void aTaskEventWithANulOrAnOverLongIdIsDeadLetteredAndTheNextTaskEventIsApplied() throws Exception {
        String task = "hold-" + UUID.randomUUID().toString().substring(0, 8);
        RecordMetadata nul = send(TASKS_TOPIC, f.tenant + "/" + task, taskEvent(f.tenant, "bad\\u0000" + task),
                null);
        RecordMetadata tooLong = send(TASKS_TOPIC, f.tenant + "/" + task, taskEvent(f.tenant, "x".repeat(65)), null);
        send(TASKS_TOPIC, f.tenant + "/" + task, taskEvent(f.tenant, task), null);

        await().atMost(WAIT).until(() -> exists("SELECT 1 FROM executor.task_hold WHERE tenant_id = ? AND task_id = ? "
                + "AND open", f.tenant, task));
        try (ResultWatcher dlq = new ResultWatcher(f.stack.infra.kafkaBootstrap(), TASKS_DLQ_TOPIC)) {
            ConsumerRecord<byte[], byte[]> dead = awaitDeadLetter(dlq, nul);
            assertThat(header(dead, Contract.DLQ_ERROR_CODE)).isEqualTo("SCHEMA_INVALID");
            assertThat(header(dead, Contract.DLQ_ERROR_MESSAGE)).contains("/taskId");
            assertThat(header(awaitDeadLetter(dlq, tooLong), Contract.DLQ_ERROR_CODE)).isEqualTo("SCHEMA_INVALID");
        }
    }

    private static final String TASKS_TOPIC = "toolonce.agent-tasks";
    private static final String TASKS_DLQ_TOPIC = "toolonce.agent-tasks.dlq";

    /** A task event as the agent publishes it (agent-task.v1.json), open, with one running step. */
    private static byte[] taskEvent(String tenant, String taskIdJson) {
        return ("{\"messageId\":\"" + UUID.randomUUID() + "\",\"at\":\"2026-12-01T00:00:00Z\",\"tenantId\":\""
                + tenant + "\",\"taskId\":\"" + taskIdJson + "\",\"state\":\"RUNNING\",\"open\":true,"
                + "\"version\":1,\"steps\":[" + STEP + "]}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void everyGeneratedHostileIntentIsAnsweredOrDeadLetteredAndTheValidIntentAfterItRuns() throws Exception {
        // Each hostile intent gets its own key (so its own message id): generated keys repeat, and a repeated
        // message id would be absorbed by the inbox without a row of its own to account for it.
        Arbitrary<String> fields = Arbitraries.of(HostileJson.INTENT_FIELDS);
        Arbitrary<String> values = HostileJson.value();
        Arbitrary<byte[]> garbage = HostileJson.garbage();
        List<RecordMetadata> hostileSent = new ArrayList<>();
        List<String> validIds = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String field = fields.sample();
            // A hostile but valid message id (a lone surrogate) repeats across samples and is then, rightly,
            // absorbed as a duplicate: keep message ids unique so that every record has a row of its own.
            String value = values.filter(v -> v.length() <= MAX_SENT_BYTES
                    && !(field.equals("messageId") && v.startsWith("\"\\u"))).sample();
            byte[] bad = i % 5 == 4 ? garbage.sample()
                    : HostileJson.intentWith(f.tenant, "h" + i + "-" + UUID.randomUUID(), field, value)
                            .getBytes(StandardCharsets.UTF_8);
            hostileSent.add(send(Contract.INTENTS_TOPIC, f.tenant + "/hostile/" + i, bad, null));
            ToolIntent valid = f.counter("valid-" + i, "task-hostile", "v" + i, 1);
            String id = UUID.randomUUID().toString();
            send(Contract.INTENTS_TOPIC, valid.recordKey(), json(valid.withMessageId(id)), id);
            validIds.add(id);
        }

        for (String id : validIds) {
            assertThat(results.awaitResult(id, WAIT)).as("valid intent %s answered", id).isNotEmpty();
        }
        try (ResultWatcher dlq = new ResultWatcher(f.stack.infra.kafkaBootstrap(), Contract.INTENTS_DLQ_TOPIC)) {
            await().atMost(WAIT).untilAsserted(() -> {
                dlq.pollOnce(Duration.ofMillis(200));
                Set<Long> deadOffsets = deadOffsets(dlq);
                for (RecordMetadata m : hostileSent) {
                    assertThat(deadOffsets.contains(m.offset()) || intakeRecorded(m))
                            .as("hostile intent at offset %d processed or dead-lettered", m.offset()).isTrue();
                }
            });
        }
        for (int i = 0; i < validIds.size(); i++) {
            assertThat(f.effect(f.tenant + ":valid-" + i).path("count").asLong()).isEqualTo(1);
        }
    }

    /**
     * Issue 19: any Kafka producer could act for any tenant, and ask for a refund with an intent for
     * {@code payments/charge.compensate}. Now an intent not signed by a key that may sign intents for its tenant, and any
     * intent naming a compensation, is dead-lettered with a code of its own, causes no effect at the sandbox, and does
     * not hold up the intents behind it.
     */
    @Test
    void intentsThatAreNotSignedForTheirTenantOrAskForACompensationAreDeadLetteredWithNoEffect() throws Exception {
        String other = "other-" + UUID.randomUUID().toString().substring(0, 8);
        SigningKey othersOnly = TestKeys.add(SigningKey.generate(EnumSet.of(Power.INTENT), Set.of(other), "other-agent"));
        ToolIntent probe = new ToolIntent(null, other, "counter", "apply", "probe",
                JsonNodeFactory.instance.objectNode().put("opId", other + ":probe").put("delta", 1), null, null, null);
        await("the executor reads the new key").atMost(WAIT).pollInterval(Duration.ofSeconds(1)).until(() -> {
            String id = UUID.randomUUID().toString();
            producer.send(TestKeys.sign(record(probe, id), othersOnly)).get();
            return !results.awaitResult(id, Duration.ofSeconds(5)).isEmpty();
        });

        String charge = "forged-" + UUID.randomUUID();
        String chargeId = f.send(f.payments(charge, 700));
        assertThat(results.awaitResult(chargeId, WAIT)).first().extracting(ToolResult::status)
                .isEqualTo(ResultStatus.COMMITTED);
        Map<String, RecordMetadata> refused = new LinkedHashMap<>();
        refused.put("UNSIGNED_RECORD", producer.send(record(f.counter("unsigned", null, null, 1), "m-u-" + charge)).get());
        refused.put("SIGNER_NOT_ALLOWED", producer.send(TestKeys.sign(record(f.counter("other-tenant", null, null, 1),
                "m-o-" + charge), othersOnly)).get()); // a key of another tenant, for this tenant
        refused.put("SIGNER_NOT_ALLOWED ", producer.send(TestKeys.sign(record(f.counter("by-executor", null, null, 1),
                "m-e-" + charge), TestKeys.executor())).get()); // the executor's key requests nothing
        ToolIntent refund = new ToolIntent(null, f.tenant, "payments", "charge.compensate", charge,
                JsonNodeFactory.instance.objectNode(), null, null, null);
        refused.put("OPERATION_NOT_REQUESTABLE", producer.send(TestKeys.signIntent(record(refund, "m-c-" + charge))).get());
        ToolIntent after = f.counter("after-forged", null, null, 1);
        String afterId = UUID.randomUUID().toString();
        producer.send(TestKeys.signIntent(record(after, afterId))).get();

        assertThat(results.awaitResult(afterId, WAIT)).first().extracting(ToolResult::status)
                .isEqualTo(ResultStatus.COMMITTED);
        try (ResultWatcher dlq = new ResultWatcher(f.stack.infra.kafkaBootstrap(), Contract.INTENTS_DLQ_TOPIC)) {
            for (Map.Entry<String, RecordMetadata> e : refused.entrySet()) {
                assertThat(header(awaitDeadLetter(dlq, e.getValue()), Contract.DLQ_ERROR_CODE)).isEqualTo(e.getKey().trim());
                assertThat(intakeRecorded(e.getValue())).as("never reached intake").isFalse();
            }
        }
        for (String opId : List.of("unsigned", "other-tenant", "by-executor")) {
            assertThat(f.effect(f.tenant + ":" + opId)).as("no effect of " + opId).isNull();
        }
        assertThat(f.effectOfScope(f.tenant + "/payments/charge.compensate/" + charge)).as("no refund").isNull();
        assertThat(exists("SELECT 1 FROM executor.tool_call WHERE tenant_id = ? AND operation = 'charge.compensate' "
                + "AND idempotency_key = ?", f.tenant, charge)).isFalse();
        assertThat(f.effect(f.tenant + ":after-forged").path("count").asLong()).isEqualTo(1);
    }

    /** An intent record with the contract's headers, unsigned, on this test's partition. */
    private static ProducerRecord<byte[], byte[]> record(ToolIntent intent, String id) {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(Contract.INTENTS_TOPIC, PARTITION,
                intent.recordKey().getBytes(StandardCharsets.UTF_8), json(intent.withMessageId(id)));
        r.headers().add(Contract.CE_ID, id.getBytes(StandardCharsets.UTF_8));
        r.headers().add(Contract.CE_TYPE, Contract.INTENT_TYPE.getBytes(StandardCharsets.UTF_8));
        return r;
    }

    private RecordMetadata send(String topic, String key, byte[] value, String ceId) throws Exception {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, PARTITION, key.getBytes(StandardCharsets.UTF_8), value);
        if (ceId != null) {
            r.headers().add(Contract.CE_ID, ceId.getBytes(StandardCharsets.UTF_8));
        }
        // hostile, but signed: each record is refused for what it is, not for want of a signature
        return producer.send(TestKeys.sign(r, Contract.RESULTS_TOPIC.equals(topic) ? TestKeys.executor()
                : TestKeys.agents())).get();
    }

    private ConsumerRecord<byte[], byte[]> awaitDeadLetter(ResultWatcher dlq, RecordMetadata original) {
        return await().atMost(WAIT).until(() -> {
            dlq.pollOnce(Duration.ofMillis(200));
            return dlq.records.stream().filter(d -> sameOrigin(d, original)).findFirst().orElse(null);
        }, d -> d != null);
    }

    private Set<Long> deadOffsets(ResultWatcher dlq) {
        Set<Long> out = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> d : dlq.records) {
            if (String.valueOf(PARTITION).equals(header(d, Contract.DLQ_ORIGINAL_PARTITION))
                    && Contract.INTENTS_TOPIC.equals(header(d, Contract.DLQ_ORIGINAL_TOPIC))) {
                out.add(Long.parseLong(header(d, Contract.DLQ_ORIGINAL_OFFSET)));
            }
        }
        return out;
    }

    private static boolean sameOrigin(ConsumerRecord<byte[], byte[]> d, RecordMetadata m) {
        return m.topic().equals(header(d, Contract.DLQ_ORIGINAL_TOPIC))
                && String.valueOf(m.partition()).equals(header(d, Contract.DLQ_ORIGINAL_PARTITION))
                && String.valueOf(m.offset()).equals(header(d, Contract.DLQ_ORIGINAL_OFFSET));
    }

    private boolean intakeRecorded(RecordMetadata m) throws Exception {
        return exists("SELECT 1 FROM executor.inbox_message WHERE topic = ? AND kafka_partition = ? AND kafka_offset = ?",
                m.topic(), m.partition(), m.offset());
    }

    private boolean processed(RecordMetadata m) throws Exception {
        return exists("SELECT 1 FROM agent.inbox_message WHERE topic = ? AND kafka_partition = ? AND kafka_offset = ?",
                m.topic(), m.partition(), m.offset());
    }

    private boolean loggedResult(String resultMessageId) throws Exception {
        return exists("SELECT 1 FROM agent.step_result_log WHERE result_message_id = ?", resultMessageId);
    }

    private String deadLetterRow(RecordMetadata m) throws Exception {
        try (Connection c = DriverManager.getConnection(f.stack.jdbcUrl, "postgres", "");
             PreparedStatement ps = c.prepareStatement("SELECT reason FROM agent.step_result_log "
                     + "WHERE dead_lettered AND kafka_coordinates = ?")) {
            ps.setString(1, m.topic() + "-" + m.partition() + "@" + m.offset());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private boolean exists(String sql, Object... params) throws Exception {
        try (Connection c = DriverManager.getConnection(f.stack.jdbcUrl, "postgres", "");
             PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static byte[] json(ToolIntent intent) {
        return new dev.toolonce.schemas.EventCodec().write(intent).getBytes(StandardCharsets.UTF_8);
    }
}
