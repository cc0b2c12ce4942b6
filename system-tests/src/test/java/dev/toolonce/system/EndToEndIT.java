package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The walking skeleton end to end: agent outbox → relay → executor → sandbox tool → executor outbox →
 * relay → result consumer → agent step, with every service a separate process on a real PostgreSQL and
 * a real Kafka broker. The {@code counter} tool never deduplicates, so only ToolOnce can keep its count at 1.
 */
class EndToEndIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private Fixtures f;
    private ResultWatcher results;

    @BeforeEach
    void setUp() {
        f = new Fixtures(SystemStack.get());
        results = f.results();
    }

    @AfterEach
    void tearDown() {
        results.close();
        f.close();
    }

    @Test
    void intentFromIntentPublisherIsExecutedOnceAndItsResultReachesTheStep() throws Exception {
        ToolIntent intent = f.counter("k1", "task-1", "1", 5);
        String id = f.publish(intent);

        Map<String, String> step = awaitStep("task-1", "1", "COMMITTED");
        List<ToolResult> answers = results.awaitResult(id, WAIT);

        assertThat(answers).isNotEmpty().allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(ResultStatus.COMMITTED);
            assertThat(r.replayed()).isFalse();
        });
        assertThat(step.get("intent_message_id")).isEqualTo(id);
        assertThat(step.get("external_object_id")).isEqualTo(answers.get(0).externalObjectId()).isNotBlank();
        assertThat(Long.parseLong(step.get("call_version"))).isEqualTo(answers.get(0).callVersion()).isPositive();
        assertThat(f.effect(f.tenant + ":k1").path("count").asLong()).isEqualTo(1);
    }

    @Test
    void redeliveredRecordIsAbsorbedAndAClientRetryGetsTheStoredResultReplayed() throws Exception {
        ToolIntent intent = f.counter("k2", "task-2", "1", 7);
        String id = f.send(intent);
        // The same record again, same ce_id: the broker delivers it twice.
        f.sendRecord(null, intent.recordKey(), json(intent.withMessageId(id)), id);
        ToolResult first = results.awaitResult(id, WAIT).get(0);
        assertThat(first.status()).isEqualTo(ResultStatus.COMMITTED);

        String retryId = f.send(intent); // same scope and arguments, new message id
        ToolResult retry = results.awaitResult(retryId, WAIT).get(0);

        assertThat(retry.replayed()).isTrue();
        assertThat(retry.status()).isEqualTo(ResultStatus.COMMITTED);
        assertThat(retry.externalObjectId()).isEqualTo(first.externalObjectId());
        assertThat(retry.callVersion()).isEqualTo(first.callVersion());
        settle();
        assertThat(results.byIntent.get(id)).as("one answer for the redelivered message").hasSize(1);
        JsonNode effect = f.effect(f.tenant + ":k2");
        assertThat(effect.path("count").asLong()).isEqualTo(1);
        assertThat(effect.path("requests").asLong()).isEqualTo(1);
    }

    @Test
    void sameScopeWithOtherArgumentsIsRejectedWithoutEffectAndTheOriginalStepIsUnchanged() throws Exception {
        String originalId = f.publish(f.counter("k3", "task-3", "1", 1));
        Map<String, String> before = awaitStep("task-3", "1", "COMMITTED");

        // A conflicting request as another step of the agent, and one reusing the original step's names.
        String otherStepId = f.publish(f.counter("k3", "task-3", "2", 2));
        String sameStepId = f.send(f.counter("k3", "task-3", "1", 3));

        for (String conflicting : List.of(otherStepId, sameStepId)) {
            ToolResult r = results.awaitResult(conflicting, WAIT).get(0);
            assertThat(r.status()).isEqualTo(ResultStatus.REJECTED);
            assertThat(r.error().code()).isEqualTo("IDEMPOTENCY_PARAMETER_MISMATCH");
            assertThat(r.intentMessageId()).isEqualTo(conflicting);
            assertThat(r.externalObjectId()).isNull();
        }
        assertThat(awaitStep("task-3", "2", "REJECTED").get("error_code")).isEqualTo("IDEMPOTENCY_PARAMETER_MISMATCH");
        settle();
        assertThat(f.step("task-3", "1")).isEqualTo(before);
        assertThat(before.get("intent_message_id")).isEqualTo(originalId);
        assertThat(f.effect(f.tenant + ":k3").path("count").asLong()).isEqualTo(1);
    }

    @Test
    void malformedAndSchemaInvalidIntentsAreDeadLetteredAndTheNextIntentOnThePartitionRuns() throws Exception {
        try (ResultWatcher dlq = new ResultWatcher(f.stack.infra.kafkaBootstrap(), Contract.INTENTS_DLQ_TOPIC)) {
            byte[] malformed = "{\"tenantId\": oops".getBytes(StandardCharsets.UTF_8);
            byte[] invalid = ("{\"tenantId\":\"" + f.tenant + "\",\"tool\":\"counter\",\"operation\":\"apply\","
                    + "\"idempotencyKey\":\"k4\"}").getBytes(StandardCharsets.UTF_8);
            f.sendRecord(0, f.tenant + "/bad-1", malformed, null);
            f.sendRecord(0, f.tenant + "/bad-2", invalid, null);
            ToolIntent valid = f.counter("k4", "task-4", "1", 4);
            String validId = java.util.UUID.randomUUID().toString();
            f.sendRecord(0, valid.recordKey(), json(valid.withMessageId(validId)), validId);

            assertThat(results.awaitResult(validId, WAIT)).first()
                    .extracting(ToolResult::status).isEqualTo(ResultStatus.COMMITTED);
            dlq.awaitRecords(w -> mine(w).size() >= 2, WAIT);
            // DLQ partitions follow the record key, so the two records are looked up by key, not by order.
            List<ConsumerRecord<byte[], byte[]>> dead = mine(dlq);
            assertThat(dead).hasSize(2);
            ConsumerRecord<byte[], byte[]> first = byKey(dead, f.tenant + "/bad-1");
            ConsumerRecord<byte[], byte[]> second = byKey(dead, f.tenant + "/bad-2");
            assertThat(header(first, Contract.DLQ_ERROR_CODE)).isEqualTo("MALFORMED_JSON");
            assertThat(header(second, Contract.DLQ_ERROR_CODE)).isEqualTo("SCHEMA_INVALID");
            assertThat(header(second, Contract.DLQ_ERROR_MESSAGE)).contains("arguments");
            assertThat(first.value()).isEqualTo(malformed);
            assertThat(second.value()).isEqualTo(invalid);
            for (ConsumerRecord<byte[], byte[]> d : dead) {
                assertThat(header(d, Contract.DLQ_ORIGINAL_TOPIC)).isEqualTo(Contract.INTENTS_TOPIC);
                assertThat(header(d, Contract.DLQ_ORIGINAL_PARTITION)).isEqualTo("0");
                assertThat(header(d, Contract.DLQ_ORIGINAL_OFFSET)).matches("\\d+");
                assertThat(header(d, Contract.DLQ_ORIGINAL_TIMESTAMP)).matches("\\d+");
            }
        }
    }

    @Test
    void anInvalidScopeIsAnsweredInvalidArgumentsNamingTheField() throws Exception {
        String id = java.util.UUID.randomUUID().toString();
        byte[] value = ("{\"tenantId\":\"" + f.tenant + "\",\"tool\":\"count er\",\"operation\":\"apply\","
                + "\"idempotencyKey\":\"k5\",\"arguments\":{}}").getBytes(StandardCharsets.UTF_8);
        f.sendRecord(null, f.tenant + "/count er/apply/k5", value, id);

        ToolResult r = results.awaitResult(id, WAIT).get(0);
        assertThat(r.status()).isEqualTo(ResultStatus.REJECTED);
        assertThat(r.error().code()).isEqualTo("INVALID_ARGUMENTS");
        assertThat(r.error().message()).contains("/tool");
        assertThat(r.tool()).isEqualTo("count er");
    }

    private List<ConsumerRecord<byte[], byte[]>> mine(ResultWatcher dlq) {
        return dlq.records.stream()
                .filter(r -> new String(r.key(), StandardCharsets.UTF_8).startsWith(f.tenant + "/bad-"))
                .toList();
    }

    private static ConsumerRecord<byte[], byte[]> byKey(List<ConsumerRecord<byte[], byte[]>> records, String key) {
        return records.stream().filter(r -> key.equals(new String(r.key(), StandardCharsets.UTF_8)))
                .findFirst().orElseThrow(() -> new AssertionError("no dead letter with key " + key));
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private byte[] json(ToolIntent intent) {
        return new dev.toolonce.schemas.EventCodec().write(intent).getBytes(StandardCharsets.UTF_8);
    }

    /** Gives late duplicates a chance to show up before asserting that none did. */
    private void settle() {
        results.settle(Duration.ofSeconds(2));
    }

    private Map<String, String> awaitStep(String task, String step, String status) {
        return await("step " + task + "/" + step + " is " + status).atMost(WAIT)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                .until(() -> f.step(task, step), row -> status.equals(row.get("status")));
    }
}
