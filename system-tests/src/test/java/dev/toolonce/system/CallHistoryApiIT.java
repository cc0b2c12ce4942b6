package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.security.Role;
import dev.toolonce.testsupport.TestTokens;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Issue 23, operator API v1, calls: search, one call's history, the review queue and a resolution against the running
 * executor, with their refusals (no credential, wrong role, another tenant, a bad cursor, a bad filter, no reason, a
 * second resolution) as RFC 9457 problem details.
 */
class CallHistoryApiIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static Fixtures f;
    private static String viewer;
    private static String otherTenantsViewer;
    private static Instant before;

    @BeforeAll
    static void calls() throws Exception {
        f = new Fixtures(SystemStack.get());
        f.clearFaults();
        viewer = loaded(TestTokens.create("history-viewer", Role.VIEWER, f.tenant));
        otherTenantsViewer = loaded(TestTokens.create("history-other", Role.VIEWER, "someone-else"));
        before = Instant.now().minusSeconds(1);
        for (String key : List.of("hist-1", "hist-2", "hist-3")) {
            f.publish(f.payments(key, 700));
        }
        f.publish(f.tickets("other-1"));
        await().atMost(Duration.ofSeconds(60)).until(() ->
                get("/api/v1/calls?state=COMMITTED&tenant=" + f.tenant, viewer).path("items").size() == 4);
    }

    @AfterAll
    static void close() {
        f.close();
    }

    @Test
    void callsAreFoundByWhatAnOperatorKnowsOfThemAPageAtATime() throws Exception {
        JsonNode payments = get("/api/v1/calls?tool=payments&tenant=" + f.tenant, viewer);
        // the intents went to different partitions, so the ledger's order is intake's, not the order they were sent
        assertThat(keys(payments)).containsExactlyInAnyOrder("hist-3", "hist-2", "hist-1");
        assertThat(ids(payments)).as("newest first").isSortedAccordingTo(java.util.Comparator.reverseOrder());
        JsonNode first = payments.path("items").get(0);
        String key = first.path("idempotencyKey").asString();
        assertThat(first.path("scope").asString()).isEqualTo(f.tenant + "/payments/charge/" + key);
        assertThat(first.path("state").asString()).isEqualTo("COMMITTED");
        assertThat(first.path("taskId").asString()).isEqualTo("task-" + key);

        assertThat(keys(get("/api/v1/calls?keyPrefix=hist-2&tenant=" + f.tenant, viewer))).containsExactly("hist-2");
        assertThat(keys(get("/api/v1/calls?task=task-other-1&tenant=" + f.tenant, viewer))).containsExactly("other-1");
        assertThat(keys(get("/api/v1/calls?tool=tickets&operation=create&tenant=" + f.tenant, viewer)))
                .containsExactly("other-1");
        assertThat(keys(get("/api/v1/calls?state=NEEDS_REVIEW&tenant=" + f.tenant, viewer))).isEmpty();
        assertThat(keys(get("/api/v1/calls?since=" + before + "&tenant=" + f.tenant, viewer))).hasSize(4);
        assertThat(keys(get("/api/v1/calls?until=" + before + "&tenant=" + f.tenant, viewer))).isEmpty();

        JsonNode all = get("/api/v1/calls?tenant=" + f.tenant, viewer);
        List<Long> paged = new ArrayList<>();
        JsonNode page = get("/api/v1/calls?limit=3&tenant=" + f.tenant, viewer);
        paged.addAll(ids(page));
        assertThat(ids(page)).hasSize(3);
        assertThat(page.path("nextCursor").isString()).as("more than one page").isTrue();
        page = get("/api/v1/calls?limit=3&tenant=" + f.tenant + "&cursor=" + page.path("nextCursor").asString(), viewer);
        paged.addAll(ids(page));
        assertThat(page.path("nextCursor").isNull()).as("the last page").isTrue();
        assertThat(paged).as("the pages, one after the other, are the whole result").isEqualTo(ids(all)).hasSize(4);
    }

    @Test
    void oneCallShowsItsWholeHistory() throws Exception {
        long id = get("/api/v1/calls?keyPrefix=hist-1&tenant=" + f.tenant, viewer).path("items").get(0).path("id")
                .asLong();

        JsonNode call = get("/api/v1/calls/" + id, viewer);

        assertThat(call.path("scope").asString()).isEqualTo(f.tenant + "/payments/charge/hist-1");
        assertThat(call.path("arguments").asString()).contains("\"amount\":700");
        assertThat(call.path("externalObjectId").asString()).startsWith("ch_");
        List<String> states = new ArrayList<>();
        call.path("timeline").forEach(t -> states.add(t.path("toState").asString()));
        assertThat(states).as("every transition, in order").containsSubsequence("STARTED", "COMMITTED");
        assertThat(call.path("timeline").get(states.indexOf("STARTED")).path("fence").asLong()).isPositive();
        assertThat(call.path("resolutions").isArray()).isTrue();
        assertThat(call.path("waitingDuplicates").isArray()).isTrue();
    }

    @Test
    void refusalsAreProblemDetailsAndAnotherTenantsCallIsAsIfMissing() throws Exception {
        long id = get("/api/v1/calls?keyPrefix=hist-1&tenant=" + f.tenant, viewer).path("items").get(0).path("id")
                .asLong();

        assertThat(send("/api/v1/calls", null).statusCode()).isEqualTo(401);
        assertThat(send("/api/v1/calls/" + id, null).statusCode()).isEqualTo(401);
        assertThat(keys(get("/api/v1/calls?tenant=" + f.tenant, otherTenantsViewer))).isEmpty();
        HttpResponse<String> hidden = send("/api/v1/calls/" + id, otherTenantsViewer);
        HttpResponse<String> missing = send("/api/v1/calls/" + Long.MAX_VALUE, viewer);
        assertThat(hidden.statusCode()).isEqualTo(404);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(hidden.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        for (String bad : List.of("cursor=not-a-cursor", "state=DONE", "since=yesterday", "limit=0", "limit=501")) {
            HttpResponse<String> r = send("/api/v1/calls?" + bad, viewer);
            assertThat(r.statusCode()).as(bad + ": " + r.body()).isEqualTo(400);
            assertThat(r.headers().firstValue("Content-Type")).as(bad).hasValue("application/problem+json");
            assertThat(JSON.readTree(r.body()).path("detail").asString()).as(bad).isNotBlank();
        }
        assertThat(send("/api/v1/calls/not-a-number", viewer).statusCode()).isEqualTo(400);
    }

    @Test
    void aCallInReviewIsShownWithItsTimelineAndResolvedOnceWithAReason() throws Exception {
        try (Fixtures g = new Fixtures(SystemStack.get())) {
            String gViewer = loaded(TestTokens.create("review-viewer", Role.VIEWER, g.tenant));
            String gOperator = loaded(TestTokens.create("review-operator", Role.OPERATOR, g.tenant));
            String strangerOperator = loaded(TestTokens.create("review-stranger", Role.OPERATOR, "someone-else"));
            g.faults("email", "{\"failNext\":1}"); // applied, then the response is lost; email has no lookup
            g.publish(g.email("lost-mail"));
            await().atMost(Duration.ofSeconds(60)).until(() ->
                    keys(get("/api/v1/reviews?tenant=" + g.tenant, gViewer)).contains("lost-mail"));

            JsonNode review = get("/api/v1/reviews?tenant=" + g.tenant, gViewer).path("items").get(0);
            long id = review.path("id").asLong();
            assertThat(review.path("errorCode").asString()).isEqualTo("OUTCOME_UNKNOWN");
            List<String> details = new ArrayList<>();
            review.path("timeline").forEach(t -> details.add(t.path("toState").asString() + " " + t.path("detail")));
            assertThat(details).as("the evidence: how it got here").anySatisfy(d -> assertThat(d)
                    .startsWith("NEEDS_REVIEW").contains("offers no lookup"));
            String found = g.effect(g.tenant + ":lost-mail").path("externalObjectId").asString();
            String commit = "{\"action\":\"commit\",\"externalId\":\"" + found + "\",\"reason\":\"in the mail log\"}";

            assertThat(post("/api/v1/calls/" + id + "/resolution", commit, null).statusCode()).isEqualTo(401);
            assertThat(post("/api/v1/calls/" + id + "/resolution", commit, gViewer).statusCode()).isEqualTo(403);
            assertThat(post("/api/v1/calls/" + id + "/resolution", commit, strangerOperator).statusCode())
                    .as("another tenant's call").isEqualTo(404);
            HttpResponse<String> noReason = post("/api/v1/calls/" + id + "/resolution",
                    "{\"action\":\"commit\",\"externalId\":\"" + found + "\"}", gOperator);
            assertThat(noReason.statusCode()).isEqualTo(400);
            assertThat(noReason.body()).contains("reason is required");
            assertThat(post("/api/v1/calls/" + id + "/resolution", "{\"action\":\"undo\",\"reason\":\"x\"}",
                    gOperator).statusCode()).isEqualTo(400);
            assertThat(get("/api/v1/calls/" + id, gViewer).path("state").asString()).as("nothing moved yet")
                    .isEqualTo("NEEDS_REVIEW");

            HttpResponse<String> resolved = post("/api/v1/calls/" + id + "/resolution", commit, gOperator);
            assertThat(resolved.statusCode()).as(resolved.body()).isEqualTo(200);
            JsonNode call = JSON.readTree(resolved.body());
            assertThat(call.path("state").asString()).isEqualTo("COMMITTED");
            assertThat(call.path("externalObjectId").asString()).isEqualTo(found);
            assertThat(call.path("resolutions")).singleElement().satisfies(r -> {
                assertThat(r.path("operator").asString()).isEqualTo("review-operator");
                assertThat(r.path("note").asString()).isEqualTo("in the mail log");
            });
            HttpResponse<String> again = post("/api/v1/calls/" + id + "/resolution", commit, gOperator);
            assertThat(again.statusCode()).as("resolved once: " + again.body()).isBetween(400, 409);
            assertThat(again.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(keys(get("/api/v1/reviews?tenant=" + g.tenant, gViewer))).isEmpty();
            assertThat(g.effect(g.tenant + ":lost-mail").path("requests").asLong()).as("nothing sent again")
                    .isEqualTo(1);
        }
    }

    @Test
    void theApiDescribesItselfAsOpenApiToAnyoneWithACredential() throws Exception {
        assertThat(send("/api/v1/openapi", null).statusCode()).isEqualTo(401);

        JsonNode doc = get("/api/v1/openapi", viewer);

        assertThat(doc.path("openapi").asString()).startsWith("3.1");
        List<String> paths = new ArrayList<>();
        doc.path("paths").propertyNames().forEach(paths::add);
        assertThat(paths).containsExactlyInAnyOrder("/api/v1/calls", "/api/v1/calls/{id}", "/api/v1/reviews",
                "/api/v1/calls/{id}/resolution", "/api/v1/overview", "/api/v1/audit", "/api/v1/tools/paused",
                "/api/v1/tools/{tool}/resume", "/api/v1/dead-letters", "/api/v1/dead-letters/{topic}",
                "/api/v1/dead-letters/{topic}/{partition}/{offset}", "/api/v1/dead-letters/replay");
        assertThat(doc.path("paths").path("/api/v1/calls/{id}/resolution").path("post").path("requestBody").toString())
                .contains("Resolution");
        List<String> params = new ArrayList<>();
        doc.path("paths").path("/api/v1/calls").path("get").path("parameters")
                .forEach(p -> params.add(p.path("name").asString()));
        assertThat(params).contains("tenant", "tool", "operation", "state", "task", "since", "until", "keyPrefix",
                "cursor", "limit");
    }

    private static HttpResponse<String> post(String path, String json, String bearer) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(f.stack.executorUrl + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<Long> ids(JsonNode page) {
        List<Long> out = new ArrayList<>();
        page.path("items").forEach(i -> out.add(i.path("id").asLong()));
        return out;
    }

    private static List<String> keys(JsonNode page) {
        List<String> out = new ArrayList<>();
        page.path("items").forEach(i -> out.add(i.path("idempotencyKey").asString()));
        return out;
    }

    private static JsonNode get(String path, String bearer) throws Exception {
        HttpResponse<String> r = send(path, bearer);
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private static HttpResponse<String> send(String path, String bearer) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(f.stack.executorUrl + path)).GET();
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String loaded(String bearer) {
        return f.loaded(bearer);
    }
}
