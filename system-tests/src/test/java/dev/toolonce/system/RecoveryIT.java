package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * docs/protocol.md §7, §9, §10, §12 and §16 under injected faults, each against an executor process of its own
 * (crashed, paused or restarted as the scenario needs) and judged at the sandbox's ledger. The protocol
 * scenarios that must prove the executor never sends twice use {@code counter}, which never deduplicates.
 *
 * <p>The scenarios that need an executor with the base settings only, and neither crash nor stop it, share one
 * ({@link #plain()}): each test has a tenant of its own ({@link Fixtures#tenant}), so they judge only their own
 * calls, and a start of an executor is most of such a test's time.
 */
class RecoveryIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static LoneExecutor plain;
    private final SystemStack stack = SystemStack.get();
    private Fixtures f;
    private LoneExecutor lone;

    @BeforeEach
    void setUp() throws Exception {
        f = new Fixtures(stack);
        f.clearFaults();
    }

    @AfterEach
    void tearDown() throws Exception {
        f.clearFaults();
        f.close();
        if (lone != null && lone != plain) {
            lone.close();
        }
    }

    @AfterAll
    static void closePlain() {
        if (plain != null) {
            plain.close();
        }
    }

    /** The shared executor with the base settings, started by the first test that asks. */
    private LoneExecutor plain() {
        if (plain == null) {
            plain = new LoneExecutor(stack);
        }
        return plain;
    }

    private static CallScope scope(ToolIntent i) {
        return new CallScope(i.tenantId(), i.tool(), i.operation(), i.idempotencyKey());
    }

    private JsonNode effect(ToolIntent i) throws Exception {
        return f.effect(i.arguments().path("opId").asString());
    }

    private static List<String> states(List<Map<String, String>> history) {
        return history.stream().map(a -> a.get("to_state")).toList();
    }

    @Test
    void lostResponseIsReconciledToCommittedWithOneEffectAndNoReview() throws Exception {
        lone = plain();
        f.faults("payments", "{\"failNext\":1}");
        f.faults("tickets", "{\"failNext\":1}");
        ToolIntent pay = f.payments("lost-pay", 1200);
        ToolIntent ticket = f.tickets("lost-ticket");
        String payId = lone.send(pay);
        String ticketId = lone.send(ticket);

        for (ToolIntent i : List.of(pay, ticket)) {
            Map<String, String> call = lone.awaitState(scope(i), WAIT, "COMMITTED", "NEEDS_REVIEW");
            assertThat(call.get("state")).isEqualTo("COMMITTED");
            assertThat(states(lone.history(scope(i)))).contains("UNKNOWN", "RECONCILING", "COMMITTED");
            assertThat(effect(i).path("count").asLong()).isEqualTo(1);
            assertThat(effect(i).path("requests").asLong()).isEqualTo(1);
        }
        assertThat(f.injected("payments", "failNext")).isEqualTo(1);
        assertThat(f.injected("tickets", "failNext")).isEqualTo(1);
        assertThat(lone.results(payId)).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(ResultStatus.COMMITTED);
            assertThat(r.externalObjectId()).isEqualTo(effect(pay).path("externalObjectId").asString());
        });
        assertThat(lone.results(ticketId)).singleElement().extracting(ToolResult::status).isEqualTo(ResultStatus.COMMITTED);
        assertThat(lone.query("SELECT id FROM executor.tool_call WHERE state = 'NEEDS_REVIEW' AND tenant_id = ?",
                f.tenant)).isEmpty();
    }

    @Test
    void emailWithALostResponseGoesToReviewAfterExactlyOneRequestAndAnOperatorResolvesIt() throws Exception {
        lone = plain();
        f.faults("email", "{\"failNext\":1}");
        ToolIntent mail = f.email("lost-mail");
        String id = lone.send(mail);

        Map<String, String> call = lone.awaitState(scope(mail), WAIT, "NEEDS_REVIEW", "COMMITTED");
        assertThat(call.get("state")).isEqualTo("NEEDS_REVIEW");
        assertThat(call.get("error_code")).isEqualTo("OUTCOME_UNKNOWN");
        assertThat(effect(mail).path("requests").asLong()).isEqualTo(1);
        assertThat(f.injected("email", "failNext")).isEqualTo(1);
        assertThat(lone.results(id)).singleElement().extracting(ToolResult::status).isEqualTo(ResultStatus.NEEDS_REVIEW);

        String ext = effect(mail).path("externalObjectId").asString();
        var resolved = f.postJson(lone.url + "/review/resolve", "{\"scope\":\"" + scope(mail).recordKey()
                + "\",\"action\":\"commit\",\"externalId\":\"" + ext + "\",\"operator\":\"it\"}");
        assertThat(resolved.statusCode()).as(resolved.body()).isEqualTo(200);
        assertThat(lone.call(scope(mail))).containsEntry("state", "COMMITTED").containsEntry("external_object_id", ext);
        assertThat(lone.query("SELECT * FROM executor.review_audit WHERE scope = ?", scope(mail).recordKey())).singleElement()
                .satisfies(a -> assertThat(a).containsEntry("action", "commit")
                        .as("the token's principal, not the body's 'operator'").containsEntry("operator", "test-admin"));
        List<ToolResult> results = lone.results(id);
        assertThat(results).extracting(ToolResult::status).containsExactly(ResultStatus.NEEDS_REVIEW, ResultStatus.COMMITTED);
        assertThat(results.get(1).callVersion()).isGreaterThan(results.get(0).callVersion());
        assertThat(effect(mail).path("requests").asLong()).as("nothing sent again").isEqualTo(1);
    }

    @Test
    void retryAfterIsHonouredWithinBudgetAndRejectionsFailAtOnce() throws Exception {
        lone = plain();
        f.faults("counter", "{\"rate429\":1.0}");
        ToolIntent throttled = f.counter("throttled", "t429", "1", 1);
        lone.send(throttled);
        Map<String, String> call = lone.awaitState(scope(throttled), WAIT, "FAILED_FINAL", "COMMITTED");
        assertThat(call).containsEntry("error_code", "RETRIES_EXHAUSTED").containsEntry("attempts", "5");
        assertThat(f.injected("counter", "http429")).as("no attempt beyond the budget").isEqualTo(5);
        List<Double> claims = lone.query("""
                SELECT extract(epoch FROM a.at) AS t FROM executor.tool_call_attempt a
                 WHERE a.to_state = 'STARTED' AND a.call_id = ? ORDER BY a.id""", Long.parseLong(call.get("id")))
                .stream().map(r -> Double.parseDouble(r.get("t"))).toList();
        for (int i = 1; i < claims.size(); i++) {
            assertThat(claims.get(i) - claims.get(i - 1)).as("gap before attempt %d (Retry-After: 1)", i + 1)
                    .isGreaterThanOrEqualTo(0.99);
        }
        f.clearFaults();

        f.faults("payments", "{\"rate5xx\":1.0}");
        ToolIntent unavailable = f.payments("unavailable", 500);
        lone.send(unavailable);
        assertThat(lone.awaitState(scope(unavailable), WAIT, "FAILED_FINAL", "COMMITTED"))
                .containsEntry("error_code", "RETRIES_EXHAUSTED").containsEntry("attempts", "5");
        assertThat(f.injected("payments", "http5xx")).isEqualTo(5);
        assertThat(effect(unavailable)).as("503 applied nothing").isNull();
        f.clearFaults();

        ToolIntent invalid = f.payments("negative", -5);
        String id = lone.send(invalid);
        assertThat(lone.awaitState(scope(invalid), WAIT, "FAILED_FINAL", "COMMITTED"))
                .containsEntry("error_code", "TOOL_REJECTED").containsEntry("attempts", "1");
        assertThat(lone.results(id)).singleElement().extracting(ToolResult::status).isEqualTo(ResultStatus.FAILED_FINAL);
    }

    @Test
    void executorKilledAfterTheToolAppliedAndBeforeRecordingIsReconciledAfterRestart() throws Exception {
        lone = new LoneExecutor(stack, "--toolonce.fault-injection.enabled=true",
                "--toolonce.fault-injection.crash-at=after-tool-before-record");
        ToolIntent pay = f.payments("crash-before", 700);
        lone.send(pay);
        awaitDeath(lone);
        assertThat(lone.call(scope(pay))).containsEntry("state", "STARTED");
        assertThat(effect(pay).path("count").asLong()).as("the tool applied before the crash").isEqualTo(1);

        lone.start();
        assertThat(lone.awaitState(scope(pay), WAIT, "COMMITTED", "NEEDS_REVIEW")).containsEntry("state", "COMMITTED")
                .containsEntry("external_object_id", effect(pay).path("externalObjectId").asString());
        assertThat(states(lone.history(scope(pay)))).containsSubsequence("STARTED", "UNKNOWN", "RECONCILING", "COMMITTED");
        assertThat(effect(pay).path("count").asLong()).isEqualTo(1);
        assertThat(effect(pay).path("requests").asLong()).isEqualTo(1);
    }

    @Test
    void executorKilledAfterRecordingAnswersTheClientRetryWithTheStoredResult() throws Exception {
        lone = new LoneExecutor(stack, "--toolonce.fault-injection.enabled=true",
                "--toolonce.fault-injection.crash-at=after-record");
        ToolIntent ticket = f.tickets("crash-after");
        String first = lone.send(ticket);
        awaitDeath(lone);
        assertThat(lone.call(scope(ticket))).containsEntry("state", "COMMITTED");

        lone.start();
        String retry = lone.send(ticket);
        List<ToolResult> answers = awaitResults(retry);
        assertThat(answers).singleElement().satisfies(r -> {
            assertThat(r.replayed()).isTrue();
            assertThat(r.status()).isEqualTo(ResultStatus.COMMITTED);
            assertThat(r.externalObjectId()).isEqualTo(lone.results(first).get(0).externalObjectId());
        });
        assertThat(effect(ticket).path("count").asLong()).isEqualTo(1);
    }

    @Test
    void zombieWorkerPausedPastItsLeaseIsFencedAndNoStaleFenceReachesTheTool() throws Exception {
        lone = new LoneExecutor(stack, "--toolonce.fault-injection.enabled=true",
                "--toolonce.fault-injection.pause-at=before-send", "--toolonce.fault-injection.pause-for=15s");
        ToolIntent pay = f.payments("zombie", 900);
        lone.send(pay);
        Map<String, String> call = lone.awaitState(scope(pay), WAIT, "COMMITTED", "NEEDS_REVIEW");
        assertThat(call.get("state")).isEqualTo("COMMITTED");
        assertThat(states(lone.history(scope(pay)))).containsSubsequence("STARTED", "UNKNOWN", "RECONCILING",
                "FAILED_RETRYABLE", "STARTED", "COMMITTED");
        // the zombie wakes up (15 s after it paused), tries to send with its stale fence and is refused before the tool
        await("the zombie's send refused by its lost fence").atMost(WAIT)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .until(() -> f.getJson(lone.url + "/executor/stats").path("toolonce.guards.lost{guard=pre_send}").asLong(),
                        n -> n >= 1);
        JsonNode effect = effect(pay);
        assertThat(effect.path("count").asLong()).isEqualTo(1);
        assertThat(effect.path("fences")).extracting(JsonNode::asLong)
                .containsExactly(Long.parseLong(call.get("fence")));
        assertThat(f.getJson(lone.url + "/executor/stats").path("toolonce.guards.lost{guard=pre_send}").asLong())
                .isEqualTo(1);
    }

    @Test
    void lateAppliedFromAFencedOutAttemptOnACallCommittedElsewhereRaisesTheDuplicateAlarm() throws Exception {
        lone = new LoneExecutor(stack, "--toolonce.fault-injection.enabled=true",
                "--toolonce.fault-injection.pause-at=after-check", "--toolonce.fault-injection.pause-for=20s");
        ToolIntent count = f.counter("late", "t-late", "1", 1);
        String id = lone.send(count);
        lone.awaitState(scope(count), WAIT, "NEEDS_REVIEW");
        var resolved = f.postJson(lone.url + "/review/resolve", "{\"scope\":\"" + scope(count).recordKey()
                + "\",\"action\":\"commit\",\"externalId\":\"ct_found_by_operator\",\"operator\":\"it\"}");
        assertThat(resolved.statusCode()).as(resolved.body()).isEqualTo(200);

        Map<String, String> call = await("the late APPLIED raises DUPLICATE_EFFECT").atMost(WAIT)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .until(() -> lone.call(scope(count)), c -> "DUPLICATE_EFFECT".equals(c.get("error_code")));
        assertThat(call).containsEntry("state", "NEEDS_REVIEW").containsEntry("error_code", "DUPLICATE_EFFECT");
        assertThat(lone.results(id)).extracting(ToolResult::status)
                .containsExactly(ResultStatus.NEEDS_REVIEW, ResultStatus.COMMITTED, ResultStatus.NEEDS_REVIEW);
        assertThat(f.getJson(lone.url + "/executor/stats").path("toolonce.duplicates.alarm{source=late_applied}").asLong())
                .isEqualTo(1);
    }

    @Test
    void oldOffsetsReConsumedThroughTheBrokerAreAbsorbedByTheInbox() throws Exception {
        lone = new LoneExecutor(stack);
        ToolIntent count = f.counter("rewind", "t-rewind", "1", 1);
        String id = lone.send(count);
        lone.awaitState(scope(count), WAIT, "COMMITTED");
        lone.process.stop();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.infra.kafkaBootstrap()))) {
            Map<TopicPartition, OffsetAndMetadata> rewind = new java.util.HashMap<>();
            for (int p = 0; p < 3; p++) {
                rewind.put(new TopicPartition(lone.topic, p), new OffsetAndMetadata(0));
            }
            admin.alterConsumerGroupOffsets(lone.group, rewind).all().get();
        }
        lone.start();
        await("the re-consumed record counted as DUPLICATE_MESSAGE").atMost(WAIT)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .until(() -> duplicates() >= 1);
        assertThat(duplicates()).as("the old record came again and was recognised").isEqualTo(1);
        assertThat(lone.results(id)).hasSize(1);
        assertThat(effect(count).path("count").asLong()).isEqualTo(1);
        assertThat(effect(count).path("requests").asLong()).isEqualTo(1);
    }

    private long duplicates() throws Exception {
        return f.getJson(lone.url + "/executor/stats").path("toolonce.intake{disposition=DUPLICATE_MESSAGE}").asLong();
    }

    @Test
    void unsafeLeaseOrRetentionIsRefusedAtStartUpNamingTheNumbers() {
        assertThatThrownBy(() -> new LoneExecutor(stack, "--toolonce.executor.lease=5s").close())
                .hasMessageContaining("tool '").hasMessageContaining("is not below toolonce.executor.lease PT5S");
        assertThatThrownBy(() -> new LoneExecutor(stack, "--toolonce.executor.retention=3d").close())
                .hasMessageContaining("toolonce.executor.retention PT72H (259200000 ms) is shorter than topic")
                .hasMessageContaining("retention.ms 604800000");
    }

    private List<ToolResult> awaitResults(String intentMessageId) {
        return await("a result for " + intentMessageId).atMost(WAIT)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                .until(() -> lone.results(intentMessageId), r -> !r.isEmpty());
    }

    private static void awaitDeath(LoneExecutor lone) {
        await("executor halted at its crash point").atMost(WAIT)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                .until(() -> !lone.process.isAlive());
    }
}
