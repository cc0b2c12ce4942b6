package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.testsupport.TestStack;
import dev.toolonce.core.call.CallScope;
import dev.toolonce.executor.ledger.ToolCallRetention;
import dev.toolonce.executor.ledger.ToolCallStore;
import dev.toolonce.executor.retention.RetentionPurger;
import dev.toolonce.jdbc.InboxStore;
import dev.toolonce.jdbc.OutboxStore;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.testsupport.TestKeys;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Issue 7, protocol edges against the whole stack (every service its own process): the pending-reply path
 * (docs/protocol.md §15), stale call versions on the agent side (§15), refusals of purged scopes and
 * expired intents at intake (§13), and lease heartbeats under a slow tool (§7). Each is judged
 * where it shows: the results topic, {@code agent.agent_step} / {@code step_result_log}, the ledger and the
 * sandbox's effects.
 */
class ProtocolEdgesIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private final SystemStack stack = SystemStack.get();
    private final JdbcTemplate jdbc = new JdbcTemplate(TestStack.pooled(stack.jdbcUrl));
    private Fixtures f;
    private ResultWatcher results;
    private LoneExecutor lone;

    @BeforeEach
    void setUp() throws Exception {
        f = new Fixtures(stack);
        f.clearFaults();
        results = f.results();
    }

    @AfterEach
    void tearDown() throws Exception {
        f.clearFaults();
        results.close();
        f.close();
        if (lone != null) {
            lone.close();
        }
    }

    @Test
    void aDuplicateArrivingWhileItsCallIsInFlightIsAnsweredWithTheSingleResult() throws Exception {
        f.faults("counter", "{\"latencyMs\":5000}"); // the call stays STARTED for 5 s
        ToolIntent intent = f.counter("in-flight", f.tenant + "-inflight", "1", 3);
        String first = f.send(intent);
        await("the call is in flight").atMost(WAIT).until(() -> "STARTED".equals(call(intent).get("state")));

        String retry = f.send(intent); // a client retry: same scope and arguments, new message id
        String stateWhenParked = await("the retry parked as a pending reply").atMost(WAIT)
                .until(() -> jdbc.queryForList("""
                        SELECT c.state FROM executor.pending_reply p JOIN executor.tool_call c ON c.id = p.call_id
                         WHERE p.intent_message_id = ?""", String.class, retry), rows -> !rows.isEmpty()).get(0);
        assertThat(stateWhenParked).as("the call was still running when the retry arrived").isEqualTo("STARTED");

        awaitAnswers(first, retry);
        ToolResult original = results.byIntent.get(first).get(0);
        ToolResult answer = results.byIntent.get(retry).get(0);
        System.out.printf("[ProtocolEdgesIT] in-flight duplicate: original v%d %s, retry v%d %s replayed=%s%n",
                original.callVersion(), original.status(), answer.callVersion(), answer.status(), answer.replayed());
        assertThat(original.status()).isEqualTo(ResultStatus.COMMITTED);
        assertThat(answer.status()).isEqualTo(ResultStatus.COMMITTED);
        assertThat(answer.externalObjectId()).isEqualTo(original.externalObjectId()).isNotBlank();
        assertThat(answer.callVersion()).isEqualTo(original.callVersion());
        assertThat(answer.intentMessageId()).isEqualTo(retry);
        assertSingleAnswerEach(first, retry);
        JsonNode effect = f.effect(f.tenant + ":in-flight");
        assertThat(effect.path("count").asLong()).isEqualTo(1);
        assertThat(effect.path("requests").asLong()).as("the retry never reached the tool").isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM executor.pending_reply WHERE intent_message_id = ?",
                Long.class, retry)).as("the pending reply was consumed").isZero();
    }

    @Test
    void aResultWithAnOlderOrEqualCallVersionChangesNothingOnTheAgentSide() throws Exception {
        String task = f.tenant + "-stale";
        String id = f.publish(f.counter("stale", task, "1", 1));
        Map<String, String> before = await("the step committed").atMost(WAIT)
                .until(() -> f.step(task, "1"), row -> "COMMITTED".equals(row.get("status")));
        ToolResult applied = await("the result on the topic").atMost(WAIT)
                .until(() -> results.awaitResult(id, Duration.ofMillis(500)), r -> !r.isEmpty()).get(0);
        long version = Long.parseLong(before.get("call_version"));
        assertThat(version).isEqualTo(applied.callVersion()).isPositive();

        // The same step's answer again, as a late or reordered event would carry it: FAILED_FINAL at an
        // older version and at the same version. Neither may change the step.
        String older = publishResult(staleCopy(applied, version - 1));
        String equal = publishResult(staleCopy(applied, version));

        for (String messageId : List.of(older, equal)) {
            Map<String, Object> logged = await("step_result_log records " + messageId).atMost(WAIT)
                    .until(() -> jdbc.queryForList("SELECT * FROM agent.step_result_log WHERE result_message_id = ?",
                            messageId), rows -> !rows.isEmpty()).get(0);
            System.out.printf("[ProtocolEdgesIT] stale result %s: %s%n", messageId, logged);
            assertThat(logged.get("applied")).isEqualTo(false);
            assertThat(logged.get("status")).isEqualTo("FAILED_FINAL");
            assertThat(String.valueOf(logged.get("reason"))).isNotBlank().isNotEqualTo("applied");
        }
        assertThat(f.step(task, "1")).as("the step is exactly as the applied result left it").isEqualTo(before);
    }

    @Test
    void anIntentRequestedLongerAgoThanRetentionMinusMarginIsRefusedExpiredWithoutEffect() throws Exception {
        // The system stack's executor runs with retention 8d and margin 1d: seven days of acceptance.
        ToolIntent expired = requestedAgo(f.counter("expired", f.tenant + "-expired", "1", 1), Duration.ofDays(8));
        ToolIntent recent = requestedAgo(f.counter("recent", f.tenant + "-expired", "2", 1), Duration.ofDays(6));
        String expiredId = f.send(expired);
        String recentId = f.send(recent);

        awaitAnswers(expiredId, recentId);
        ToolResult refused = results.byIntent.get(expiredId).get(0);
        assertThat(refused.status()).isEqualTo(ResultStatus.REJECTED);
        assertThat(refused.error().code()).isEqualTo("IDEMPOTENCY_KEY_EXPIRED");
        assertThat(f.effect(f.tenant + ":expired")).as("nothing sent to the tool").isNull();
        assertThat(results.byIntent.get(recentId).get(0).status()).as("inside the window: executed")
                .isEqualTo(ResultStatus.COMMITTED);
        assertThat(f.effect(f.tenant + ":recent").path("count").asLong()).isEqualTo(1);
    }

    @Test
    void aPurgedScopeIsRefusedExpiredAndNeverExecutedAgain() throws Exception {
        ToolIntent intent = f.counter("purged", f.tenant + "-purged", "1", 1);
        String first = f.send(intent);
        awaitAnswers(first);
        assertThat(results.byIntent.get(first).get(0).status()).isEqualTo(ResultStatus.COMMITTED);

        // Age the terminal call past retention and let the product's purger take it.
        jdbc.update("""
                UPDATE executor.tool_call SET terminal_at = clock_timestamp() - interval '10 days'
                 WHERE tenant_id = ? AND tool = 'counter' AND operation = 'apply' AND idempotency_key = ?""",
                f.tenant, "purged");
        int purged = new RetentionPurger(new ToolCallRetention(jdbc, "executor"), new InboxStore(jdbc, "executor"),
                new OutboxStore(jdbc, "executor"), Duration.ofDays(8), Duration.ofDays(1), 100).purgeOnce();
        assertThat(purged).isGreaterThanOrEqualTo(1);
        assertThat(call(intent)).as("the ledger row is gone").isEmpty();

        String again = f.send(intent); // the same scope and arguments, as a late client retry
        awaitAnswers(again);
        ToolResult refused = results.byIntent.get(again).get(0);
        assertThat(refused.status()).isEqualTo(ResultStatus.REJECTED);
        assertThat(refused.error().code()).isEqualTo("IDEMPOTENCY_KEY_EXPIRED");
        assertThat(call(intent)).as("the purged scope was not planned again").isEmpty();
        JsonNode effect = f.effect(f.tenant + ":purged");
        assertThat(effect.path("count").asLong()).isEqualTo(1);
        assertThat(effect.path("requests").asLong()).isEqualTo(1);
    }

    @Test
    void aToolSlowerThanMostOfTheLeaseIsKeptAliveByHeartbeatsAndCommitsOnce() throws Exception {
        // The start-up check (docs/protocol.md §7) requires connect + read + 2 x heartbeat + margin < lease, so
        // the slowest tool allowed under a 14 s lease answers after 8 s of its 9 s read timeout.
        Duration lease = Duration.ofSeconds(14);
        lone = new LoneExecutor(stack, "--toolonce.executor.lease=" + lease.toSeconds() + "s",
                "--toolonce.executor.tools.counter.read-timeout=9s");
        f.faults("counter", "{\"latencyMs\":8000}");
        ToolIntent intent = f.counter("slow", f.tenant + "-slow", "1", 1);
        CallScope scope = new CallScope(intent.tenantId(), intent.tool(), intent.operation(), intent.idempotencyKey());
        String id = lone.send(intent);

        await("claimed").atMost(WAIT).until(() -> "STARTED".equals(lone.call(scope).get("state")));
        double[] longestLease = {0};
        await("the slow call finishes").atMost(WAIT).pollInterval(Duration.ofMillis(250)).until(() -> {
            List<Map<String, String>> rows = lone.query("""
                    SELECT state, extract(epoch FROM lease_expires_at - started_at) AS held FROM executor.tool_call
                     WHERE tenant_id = ? AND idempotency_key = ?""", scope.tenantId(), scope.idempotencyKey());
            if ("STARTED".equals(rows.get(0).get("state")) && rows.get(0).get("held") != null) {
                longestLease[0] = Math.max(longestLease[0], Double.parseDouble(rows.get(0).get("held")));
            }
            return !"STARTED".equals(rows.get(0).get("state"));
        });

        Map<String, String> call = lone.call(scope);
        List<String> states = lone.history(scope).stream().map(a -> a.get("to_state")).toList();
        System.out.printf("[ProtocolEdgesIT] heartbeat: lease=%ds tool_latency=8s longest lease seen=%.1fs past the "
                + "claim; state=%s fence=%s transitions=%s%n", lease.toSeconds(), longestLease[0], call.get("state"),
                call.get("fence"), states);
        assertThat(call).containsEntry("state", "COMMITTED").containsEntry("fence", "1");
        assertThat(states).as("never swept").doesNotContain("UNKNOWN", "RECONCILING");
        assertThat(longestLease[0]).as("heartbeats moved the lease beyond the claim's own %s", lease)
                .isGreaterThan(lease.toSeconds() + 2.0);
        assertThat(lone.results(id)).singleElement().extracting(ToolResult::status).isEqualTo(ResultStatus.COMMITTED);
        JsonNode effect = f.effect(f.tenant + ":slow");
        assertThat(effect.path("count").asLong()).isEqualTo(1);
        assertThat(effect.path("requests").asLong()).isEqualTo(1);
    }

    // ------------------------------------------------------------------ helpers

    private Map<String, Object> call(ToolIntent i) {
        List<Map<String, Object>> rows = jdbc.queryForList("""
                SELECT * FROM executor.tool_call
                 WHERE tenant_id = ? AND tool = ? AND operation = ? AND idempotency_key = ?""",
                i.tenantId(), i.tool(), i.operation(), i.idempotencyKey());
        return rows.isEmpty() ? Map.of() : rows.get(0);
    }

    private void awaitAnswers(String... intentMessageIds) {
        await("answers to " + List.of(intentMessageIds)).atMost(WAIT).pollInterval(Duration.ofMillis(10)).until(() -> {
            results.pollOnce(Duration.ofMillis(300));
            return List.of(intentMessageIds).stream().allMatch(results.byIntent::containsKey);
        });
    }

    /** No second answer turns up for any of the intents within two seconds. */
    private void assertSingleAnswerEach(String... intentMessageIds) {
        await("one answer each").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(10)).until(() -> {
                    results.pollOnce(Duration.ofMillis(200));
                    return List.of(intentMessageIds).stream().allMatch(i -> results.byIntent.get(i).size() == 1);
                });
    }

    private static ToolIntent requestedAgo(ToolIntent i, Duration ago) {
        return new ToolIntent(i.messageId(), i.tenantId(), i.tool(), i.operation(), i.idempotencyKey(), i.arguments(),
                i.taskId(), i.stepId(), Instant.now().minus(ago).truncatedTo(ChronoUnit.SECONDS).toString());
    }

    private static ToolResult staleCopy(ToolResult r, long callVersion) {
        return new ToolResult(UUID.randomUUID().toString(), r.intentMessageId(), r.tenantId(), r.tool(), r.operation(),
                r.idempotencyKey(), r.requestHash(), r.taskId(), r.stepId(), callVersion, ResultStatus.FAILED_FINAL,
                null, null, new ToolResult.ResultError("TOOL_REJECTED", "a stale outcome"), r.attempts(), false,
                Instant.now().toString());
    }

    /** Puts a result on the results topic as the relay would (CloudEvents headers). @return its message id */
    private String publishResult(ToolResult r) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.infra.kafkaBootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(Contract.RESULTS_TOPIC,
                    r.recordKey().getBytes(StandardCharsets.UTF_8),
                    new EventCodec().write(r).getBytes(StandardCharsets.UTF_8));
            record.headers().add(Contract.CE_ID, r.messageId().getBytes(StandardCharsets.UTF_8));
            record.headers().add(Contract.CE_SPECVERSION, "1.0".getBytes(StandardCharsets.UTF_8));
            record.headers().add(Contract.CE_TYPE, Contract.RESULT_TYPE.getBytes(StandardCharsets.UTF_8));
            record.headers().add(Contract.CE_SOURCE, "/test/stale".getBytes(StandardCharsets.UTF_8));
            producer.send(TestKeys.sign(record, TestKeys.executor())).get();
        }
        return r.messageId();
    }
}
