package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.schemas.signing.SigningKey;
import dev.toolonce.security.Role;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.TestTokens;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Issue 23, operator API v1 beyond calls: dead letters (list, show, replay — safe by construction: a replayed record
 * is checked again, and one already applied is absorbed by the inbox), the overview's figures, the audit with
 * replays, paused tools, and the agent's task API reached through the console — each with its refusals, against the
 * running services.
 */
class OperatorApiIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String DLQ = Contract.INTENTS_DLQ_TOPIC;
    private static Fixtures f;
    private static String viewer;
    private static String operator;
    private static String strangerOperator;

    @BeforeAll
    static void tokens() {
        f = new Fixtures(SystemStack.get());
        viewer = loaded(TestTokens.create("ops-viewer", Role.VIEWER, f.tenant));
        operator = loaded(TestTokens.create("ops-operator", Role.OPERATOR, f.tenant));
        strangerOperator = loaded(TestTokens.create("ops-stranger", Role.OPERATOR, "someone-else"));
    }

    @AfterAll
    static void close() {
        f.close();
    }

    @Test
    void aDeadLetterIsShownToItsTenantReplayedWhenItsCauseIsFixedAndTakesEffectOnce() throws Exception {
        // an agent whose new signing key the executor does not hold yet: its intent is dead-lettered, nothing charged
        SigningKey late = SigningKey.generate(EnumSet.of(Power.INTENT), Set.of(f.tenant), "late-agent");
        String opId = f.tenant + ":dlq-replayed";
        String messageId = f.sendSigned(f.payments("dlq-replayed", 4200), late);
        JsonNode letter = await().atMost(Duration.ofSeconds(60)).until(() -> find(viewer, messageId), Optional::isPresent)
                .orElseThrow();
        String id = letter.path("id").asString();
        assertThat(letter.path("errorCode").asString()).isEqualTo("UNKNOWN_SIGNING_KEY");
        assertThat(letter.path("tenantId").asString()).isEqualTo(f.tenant);
        assertThat(letter.path("originalTopic").asString()).isEqualTo(Contract.INTENTS_TOPIC);
        assertThat(find(strangerOperator, messageId)).as("another tenant's dead letter is not listed").isEmpty();

        JsonNode shown = get("/api/v1/dead-letters/" + path(id), viewer);
        assertThat(shown.path("headers").path(Contract.SIGNATURE).asString()).startsWith("v1:" + late.kid() + ":");
        assertThat(shown.path("value").path("encoding").asString()).isEqualTo("utf-8");
        assertThat(shown.path("value").path("text").asString()).contains("\"amount\":4200");
        assertThat(shown.path("replays").isArray()).isTrue();
        assertThat(shown.path("replays")).isEmpty();
        assertThat(send("GET", "/api/v1/dead-letters/" + path(id), strangerOperator, null).statusCode())
                .as("another tenant's dead letter is answered as a missing one").isEqualTo(404);
        assertThat(send("GET", "/api/v1/dead-letters/" + path(DLQ + "/0/999999999"), viewer, null).statusCode())
                .isEqualTo(404);
        assertThat(send("GET", "/api/v1/dead-letters/not-a-dlq", viewer, null).statusCode()).isEqualTo(404);
        assertThat(send("GET", "/api/v1/dead-letters/" + DLQ + "?cursor=nonsense", viewer, null).statusCode())
                .isEqualTo(400);
        assertThat(f.charges(opId)).as("nothing charged while it is dead").isZero();

        String replay = "{\"ids\":[\"" + id + "\"],\"reason\":\"the agent's new key is installed\"}";
        assertThat(send("POST", "/api/v1/dead-letters/replay", null, replay).statusCode()).isEqualTo(401);
        assertThat(send("POST", "/api/v1/dead-letters/replay", viewer, replay).statusCode()).isEqualTo(403);
        HttpResponse<String> noReason = send("POST", "/api/v1/dead-letters/replay", operator, "{\"ids\":[\"" + id + "\"]}");
        assertThat(noReason.statusCode()).isEqualTo(400);
        assertThat(noReason.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode stranger = JSON.readTree(send("POST", "/api/v1/dead-letters/replay", strangerOperator, replay).body());
        assertThat(stranger.path("replayed").asInt()).isZero();
        assertThat(stranger.path("results").get(0).path("status").asInt()).isEqualTo(404);

        // the cause is fixed: the executor holds the key now (a fresh intent signed with it is taken, proving it)
        TestKeys.add(late);
        ConsoleBrowserIT.provenHeld(f, late, "dlq-probe");

        JsonNode replayed = JSON.readTree(send("POST", "/api/v1/dead-letters/replay", operator, replay).body());
        assertThat(replayed.path("replayed").asInt()).as(replayed.toString()).isEqualTo(1);
        assertThat(replayed.path("results").get(0).path("replayedTo").asString()).startsWith(Contract.INTENTS_TOPIC + "/");
        await().atMost(Duration.ofSeconds(60)).until(() -> f.charges(opId) == 1);
        await().atMost(Duration.ofSeconds(60)).until(() -> "COMMITTED".equals(call("dlq-replayed").path("state").asString()));

        // replayed a second time: the inbox absorbs it on its message id; nothing is charged again
        long duplicatesBefore = duplicateMessages();
        JsonNode again = JSON.readTree(send("POST", "/api/v1/dead-letters/replay", operator, replay).body());
        assertThat(again.path("replayed").asInt()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(60)).until(() -> duplicateMessages() > duplicatesBefore);
        assertThat(f.charges(opId)).as("charged once, whatever the replays").isEqualTo(1);
        assertThat(get("/api/v1/calls?keyPrefix=dlq-replayed&tenant=" + f.tenant, viewer).path("items")).hasSize(1);

        JsonNode after = get("/api/v1/dead-letters/" + path(id), viewer);
        assertThat(after.path("replays")).hasSize(2).allSatisfy(r -> {
            assertThat(r.path("principal").asString()).isEqualTo("ops-operator");
            assertThat(r.path("reason").asString()).isEqualTo("the agent's new key is installed");
        });
        List<String> audited = new ArrayList<>();
        get("/api/v1/audit", viewer).path("deadLetterReplays").forEach(r -> audited.add(
                r.path("dlq_topic").asString() + "/" + r.path("dlq_partition").asInt() + "/" + r.path("dlq_offset").asLong()));
        assertThat(audited).containsExactly(id, id);
        JsonNode strangers = get("/api/v1/audit", strangerOperator).path("deadLetterReplays");
        assertThat(strangers.isArray()).isTrue();
        assertThat(strangers).as("another tenant's replays are not in its audit").isEmpty();
    }

    @Test
    void aRecordOfNoTenantIsForPrincipalsOfEveryTenantAndOnlyReplayTopicsAreReplayedTo() throws Exception {
        String ceId = "not-json-" + System.nanoTime();
        f.sendTo(Contract.INTENTS_TOPIC, "k", "this is not JSON".getBytes(StandardCharsets.UTF_8), ceId);
        String admin = loaded(TestTokens.admin());
        JsonNode letter = await().atMost(Duration.ofSeconds(60)).until(() -> find(admin, ceId), Optional::isPresent)
                .orElseThrow();
        String id = letter.path("id").asString();
        assertThat(letter.path("errorCode").asString()).isEqualTo("MALFORMED_JSON");
        assertThat(letter.path("tenantId").isNull()).isTrue();
        assertThat(find(viewer, ceId)).as("no tenant: not a tenant's to see").isEmpty();
        assertThat(send("GET", "/api/v1/dead-letters/" + path(id), viewer, null).statusCode()).isEqualTo(404);
        assertThat(replay(operator, id).path("results").get(0).path("status").asInt())
                .as("nor a tenant's to replay").isEqualTo(404);

        // dead letters that name a topic no dead letter goes back to, or whose value was left out, or too old
        String now = Long.toString(System.currentTimeMillis());
        String month = Long.toString(System.currentTimeMillis() - Duration.ofDays(30).toMillis());
        String toADlq = deadLetter(Contract.INTENTS_DLQ_TOPIC, Contract.RESULTS_DLQ_TOPIC, now, null);
        String withoutValue = deadLetter(Contract.RELAY_DLQ_TOPIC, Contract.INTENTS_TOPIC, null, "300000");
        String tooOld = deadLetter(Contract.INTENTS_DLQ_TOPIC, Contract.INTENTS_TOPIC, month, null);
        for (String refused : List.of(toADlq, withoutValue, tooOld)) {
            JsonNode r = replay(operator, refused).path("results").get(0);
            assertThat(r.path("status").asInt()).as(refused + ": " + r).isEqualTo(409);
        }
        assertThat(replay(operator, toADlq).path("results").get(0).path("refused").asString())
                .contains("not a topic a dead letter is replayed to");

        JsonNode topics = get("/api/v1/dead-letters", viewer);
        List<String> names = new ArrayList<>();
        topics.forEach(t -> names.add(t.path("topic").asString()));
        assertThat(names).as("every dead-letter topic, by name").containsExactly(Contract.TASKS_DLQ_TOPIC,
                Contract.RELAY_DLQ_TOPIC, Contract.INTENTS_DLQ_TOPIC, Contract.RESULTS_DLQ_TOPIC);
        assertThat(topics).as("counts of every tenant's records are not a tenant's")
                .allSatisfy(t -> assertThat(t.path("records").isNull()).isTrue());
        assertThat(get("/api/v1/dead-letters", admin).get(2).path("records").asLong()).isPositive();
    }

    /**
     * A record of this test's tenant put straight on {@code dlq} with the headers a dead-letter sink would add.
     *
     * @return its id, once the API lists it
     */
    private static String deadLetter(String dlq, String from, String originalTimestamp, String valueBytes)
            throws Exception {
        String ceId = "crafted-" + System.nanoTime();
        org.apache.kafka.clients.producer.ProducerRecord<byte[], byte[]> r = new org.apache.kafka.clients.producer
                .ProducerRecord<>(dlq, "k".getBytes(StandardCharsets.UTF_8),
                ("{\"tenantId\":\"" + f.tenant + "\"}").getBytes(StandardCharsets.UTF_8));
        r.headers().add(Contract.CE_ID, ceId.getBytes(StandardCharsets.UTF_8));
        r.headers().add(Contract.DLQ_ERROR_CODE, "PROCESSING_FAILED".getBytes(StandardCharsets.UTF_8));
        r.headers().add(Contract.DLQ_ORIGINAL_TOPIC, from.getBytes(StandardCharsets.UTF_8));
        if (originalTimestamp != null) {
            r.headers().add(Contract.DLQ_ORIGINAL_TIMESTAMP, originalTimestamp.getBytes(StandardCharsets.UTF_8));
        }
        if (valueBytes != null) {
            r.headers().add(Contract.DLQ_ORIGINAL_VALUE_BYTES, valueBytes.getBytes(StandardCharsets.UTF_8));
        }
        f.produce(r);
        return await().atMost(Duration.ofSeconds(30)).until(() -> find(operator, dlq, ceId), Optional::isPresent)
                .orElseThrow().path("id").asString();
    }

    private static JsonNode replay(String bearer, String id) throws Exception {
        HttpResponse<String> r = send("POST", "/api/v1/dead-letters/replay", bearer,
                "{\"ids\":[\"" + id + "\"],\"reason\":\"test\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    @Test
    void theOverviewShowsTheTenantsFiguresAndTheExecutorsCountersOnlyToPrincipalsOfEveryTenant() throws Exception {
        try (Fixtures g = new Fixtures(SystemStack.get())) {
            String gViewer = loaded(TestTokens.create("overview-viewer", Role.VIEWER, g.tenant));
            g.publish(g.tickets("overview-1"));
            g.faults("email", "{\"failNext\":1}"); // applied, its answer lost, no lookup: review
            g.publish(g.email("overview-lost"));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                JsonNode o = get("/api/v1/overview", gViewer);
                return o.path("callsByState").path("COMMITTED").asLong() == 1 && o.path("reviewBacklog").asLong() == 1;
            });

            JsonNode o = get("/api/v1/overview", gViewer);
            assertThat(o.path("callsByState").path("NEEDS_REVIEW").asLong()).isEqualTo(1);
            JsonNode r = o.path("recovery");
            assertThat(r.path("unknown").asLong()).isEqualTo(1);
            assertThat(r.path("reconciled").asLong()).isZero();
            assertThat(r.path("toReview").asLong()).isEqualTo(1);
            assertThat(r.path("reconciliationSuccessRate").asDouble()).isEqualTo(0.0);
            assertThat(r.path("manualRecoveryRate").asDouble()).isEqualTo(1.0);
            assertThat(r.path("recoveryMillisP50").asDouble()).isPositive()
                    .isEqualTo(r.path("recoveryMillisP99").asDouble()); // one recovery: every percentile is it
            assertThat(o.path("compensations").path("started").asLong()).isZero();
            assertThat(o.path("compensations").path("compensationSuccessRate").isNull()).as("no rate of nothing")
                    .isTrue();
            java.util.Map<String, Long> moves = new java.util.TreeMap<>(); // summed over the buckets
            o.path("transitionsOverTime").forEach(t -> moves.merge(t.path("state").asString(), t.path("count").asLong(),
                    Long::sum));
            assertThat(moves).containsEntry("NEEDS_REVIEW", 1L).containsEntry("UNKNOWN", 1L)
                    .containsEntry("COMMITTED", 1L);
            assertThat(o.path("executor").isNull()).as("counters of every tenant are not a tenant's").isTrue();

            JsonNode all = get("/api/v1/overview", loaded(TestTokens.admin()));
            assertThat(all.path("executor").path("intentsTakenIn").asLong()).isPositive();
            assertThat(all.path("executor").path("duplicateEffectAlarms").isNumber()).isTrue();
            assertThat(get("/api/v1/overview", strangerOperator).path("callsByState").path("COMMITTED").isMissingNode())
                    .as("nothing of another tenant's calls").isTrue();
            JsonNode minute = get("/api/v1/overview?since=2026-12-06T09:59:50Z&until=2026-12-06T10:00:00Z", gViewer);
            assertThat(minute.path("bucketSeconds").asLong()).as("a window shorter than 24 s").isEqualTo(1);
            assertThat(send("GET", "/api/v1/overview?since=2026-12-06T10:00:00Z&until=2026-12-06T09:00:00Z", gViewer,
                    null).statusCode()).isEqualTo(400);
            assertThat(send("GET", "/api/v1/overview", null, null).statusCode()).isEqualTo(401);
            g.clearFaults();
        }
    }

    @Test
    void pausedToolsAndTheAgentsTasksAreUnderApiV1AndTheConsolesTaskPagesForwardTheOperatorsOwnToken() throws Exception {
        assertThat(send("GET", "/api/v1/tools/paused", viewer, null).statusCode()).isEqualTo(200);
        assertThat(send("POST", "/api/v1/tools/payments/resume?tenant=" + f.tenant, viewer, "{}").statusCode())
                .isEqualTo(403);

        HttpResponse<String> tasks = send("GET", "/console/tasks-api/tasks", viewer, null);
        assertThat(tasks.statusCode()).as(tasks.body()).isEqualTo(200);
        assertThat(JSON.readTree(tasks.body()).isArray()).isTrue();
        assertThat(send("GET", "/console/tasks-api/tasks", null, null).statusCode()).isEqualTo(401);
        assertThat(send("GET", "/console/tasks-api/tasks/no-such-task", viewer, null).statusCode())
                .as("the agent's answer, passed on").isEqualTo(404);
        assertThat(send("POST", "/console/tasks-api/tasks/no-such-task/resume", viewer, "{}").statusCode())
                .isEqualTo(403);
        assertThat(send("GET", "/console/tasks-api/actuator", viewer, null).statusCode())
                .as("only the task API is reached").isEqualTo(400);

        HttpResponse<String> page = send("GET", "/console/", null, null);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<title>ToolOnce console</title>");
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(v ->
                assertThat(v).contains("default-src 'self'").contains("frame-ancestors 'none'"));
    }

    /** The dead letter of {@code messageId} among those {@code bearer} may see in the intents' DLQ, page by page. */
    private static Optional<JsonNode> find(String bearer, String messageId) throws Exception {
        return find(bearer, DLQ, messageId);
    }

    private static Optional<JsonNode> find(String bearer, String topic, String messageId) throws Exception {
        String cursor = null;
        do {
            JsonNode page = get("/api/v1/dead-letters/" + topic + "?limit=500"
                    + (cursor == null ? "" : "&cursor=" + cursor), bearer);
            for (JsonNode d : page.path("items")) {
                if (messageId.equals(d.path("messageId").asString())) {
                    return Optional.of(d);
                }
            }
            cursor = page.path("nextCursor").isString() ? page.path("nextCursor").asString() : null;
        } while (cursor != null);
        return Optional.empty();
    }

    private static JsonNode call(String key) throws Exception {
        JsonNode items = get("/api/v1/calls?keyPrefix=" + key + "&tenant=" + f.tenant, viewer).path("items");
        return items.isEmpty() ? JSON.createObjectNode() : items.get(0);
    }

    private static long duplicateMessages() throws Exception {
        return get("/executor/stats", loaded(TestTokens.admin())).path("toolonce.intake{disposition=DUPLICATE_MESSAGE}").asLong();
    }

    private static String path(String id) {
        int o = id.lastIndexOf('/');
        int p = id.lastIndexOf('/', o - 1);
        return URLEncoder.encode(id.substring(0, p), StandardCharsets.UTF_8) + id.substring(p);
    }

    private static JsonNode get(String path, String bearer) throws Exception {
        HttpResponse<String> r = send("GET", path, bearer, null);
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private static HttpResponse<String> send(String method, String path, String bearer, String json) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(f.stack.executorUrl + path)).method(method,
                json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            b.header("Content-Type", "application/json");
        }
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String loaded(String bearer) {
        return f.loaded(bearer);
    }
}
