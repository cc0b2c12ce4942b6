package dev.toolonce.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.sandbox.http.Json;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestStack;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The sandbox in-JVM against a fresh database of the test stack's PostgreSQL, judged over real
 * HTTP and by its own ledger. Every test uses its own keys, so the tests share one app.
 */
class SandboxLedgerIT {

    private static ConfigurableApplicationContext app;
    private static String base;
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @BeforeAll
    static void startSandbox() throws Exception {
        int port = freePort();
        app = SandboxApplication.builder().run(
                "--spring.datasource.url=" + freshDatabase(),
                "--toolonce.sandbox.port=" + port,
                "--toolonce.sandbox.fault-seed=1");
        base = "http://127.0.0.1:" + port;
        assertThat(send("GET", "/ready", null, Map.of()).statusCode()).isEqualTo(200);
    }

    @AfterAll
    static void stopSandbox() {
        if (app != null) {
            app.close();
        }
    }

    @BeforeEach
    void clearFaults() throws Exception {
        assertThat(send("DELETE", "/_faults", null, Map.of()).statusCode()).isEqualTo(200);
    }

    @Test
    void theChargesDryRunChecksLikeAChargeAndLeavesNoEffect() throws Exception {
        String key = unique("dry");
        var valid = send("POST", "/payments/charges/validate", "{\"amount\":1000,\"currency\":\"EUR\"}",
                Map.of("Idempotency-Key", key));
        assertThat(valid.statusCode()).isEqualTo(200);
        assertThat(json(valid).get("valid").asBoolean()).isTrue();
        var invalid = send("POST", "/payments/charges/validate", "{\"amount\":1000,\"currency\":\"12\"}",
                Map.of("Idempotency-Key", key));
        assertThat(invalid.statusCode()).isEqualTo(400);
        assertThat(effects("payments")).noneMatch(e -> e.get("effectKey").stringValue().equals(key));
        // the key was not consumed: a real charge under it is a new effect
        var charge = send("POST", "/payments/charges", "{\"amount\":1000,\"currency\":\"EUR\"}",
                Map.of("Idempotency-Key", key));
        assertThat(charge.statusCode()).isEqualTo(201);
        assertThat(effect("payments", key).get("count").asInt()).isEqualTo(1);
    }

    @Test
    void twoChargesWithOneKeyAreOneEffect() throws Exception {
        String key = unique("charge");
        String body = "{\"amount\":1000,\"currency\":\"EUR\",\"opId\":\"" + key + "-op\"}";

        var first = send("POST", "/payments/charges", body, Map.of("Idempotency-Key", key, "X-ToolOnce-Fence", "1"));
        var second = send("POST", "/payments/charges", body, Map.of("Idempotency-Key", key, "X-ToolOnce-Fence", "2"));

        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(json(second).get("id")).isEqualTo(json(first).get("id"));
        JsonNode effect = effect("payments", key);
        assertThat(effect.get("count").asInt()).isEqualTo(1);
        assertThat(effect.get("requests").asInt()).isEqualTo(2);
        assertThat(effect.get("opId").stringValue()).isEqualTo(key + "-op");
        assertThat(effect.get("externalObjectId").stringValue()).isEqualTo(json(first).get("id").stringValue());
        assertThat(effect.get("fences").toString()).isEqualTo("[1,2]");

        var lookup = send("GET", "/payments/charges?idempotency_key=" + key, null, Map.of());
        assertThat(json(lookup).get("id")).isEqualTo(json(first).get("id"));
        assertThat(send("GET", "/payments/charges?idempotency_key=" + unique("none"), null, Map.of()).statusCode())
                .isEqualTo(404);
    }

    @Test
    void concurrentChargesWithOneKeyAreOneEffect() throws Exception {
        String key = unique("race");
        String body = "{\"amount\":5,\"currency\":\"USD\"}";
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(() -> send("POST", "/payments/charges", body, Map.of("Idempotency-Key", key)).statusCode());
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> result : pool.invokeAll(calls)) {
                statuses.add(result.get());
            }
            assertThat(statuses).containsOnlyOnce(201).containsOnly(201, 200);
        } finally {
            pool.shutdownNow();
        }
        JsonNode effect = effect("payments", key);
        assertThat(effect.get("count").asInt()).isEqualTo(1);
        assertThat(effect.get("requests").asInt()).isEqualTo(8);
    }

    @Test
    void keyReusedWithAnotherBodyIs422AndNoEffect() throws Exception {
        String key = unique("reuse");
        send("POST", "/payments/charges", "{\"amount\":1,\"currency\":\"EUR\"}", Map.of("Idempotency-Key", key));

        var reused = send("POST", "/payments/charges", "{\"amount\":2,\"currency\":\"EUR\"}",
                Map.of("Idempotency-Key", key));

        assertThat(reused.statusCode()).isEqualTo(422);
        assertThat(json(reused).get("error").stringValue()).isEqualTo("idempotency_key_reused");
        assertThat(effect("payments", key).get("count").asInt()).isEqualTo(1);
    }

    @Test
    void secondTicketWithOneReferenceIs409AndOneEffect() throws Exception {
        String reference = unique("ticket");
        String body = "{\"external_reference\":\"" + reference + "\",\"title\":\"Disk full\"}";

        var first = send("POST", "/tickets", body, Map.of());
        var second = send("POST", "/tickets", body, Map.of());

        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(second.statusCode()).isEqualTo(409);
        assertThat(json(second).get("id")).isEqualTo(json(first).get("id"));
        JsonNode effect = effect("tickets", reference);
        assertThat(effect.get("count").asInt()).isEqualTo(1);
        assertThat(effect.get("requests").asInt()).isEqualTo(2);
        assertThat(send("GET", "/tickets?external_reference=" + reference, null, Map.of()).statusCode())
                .isEqualTo(200);
        assertThat(send("POST", "/tickets", "{\"title\":\"x\"}", Map.of()).statusCode()).isEqualTo(400);
    }

    @Test
    void counterAppliesEveryRequest() throws Exception {
        String scope = unique("counter");

        var first = send("POST", "/counter/apply", "{}", Map.of("X-ToolOnce-Scope", scope));
        var second = send("POST", "/counter/apply", "{}", Map.of("X-ToolOnce-Scope", scope));

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(second.statusCode()).isEqualTo(200);
        JsonNode effect = effect("counter", scope);
        assertThat(effect.get("count").asInt()).isEqualTo(2);
        assertThat(effect.get("scope").stringValue()).isEqualTo(scope);
    }

    @Test
    void theLedgerCanBeReadForOneOpIdPrefix() throws Exception {
        String prefix = unique("round") + ":";
        send("POST", "/counter/apply", "{\"opId\":\"" + prefix + "1\"}", Map.of("X-ToolOnce-Scope", unique("s")));
        send("POST", "/counter/apply", "{\"opId\":\"" + prefix + "2\"}", Map.of("X-ToolOnce-Scope", unique("s")));
        send("POST", "/counter/apply", "{\"opId\":\"other-" + prefix + "3\"}", Map.of("X-ToolOnce-Scope", unique("s")));

        List<String> opIds = new ArrayList<>();
        json(send("GET", "/_ledger?opIdPrefix=" + java.net.URLEncoder.encode(prefix, java.nio.charset.StandardCharsets.UTF_8),
                null, Map.of())).get("effects").forEach(e -> opIds.add(e.get("opId").stringValue()));
        assertThat(opIds).containsExactlyInAnyOrder(prefix + "1", prefix + "2");
        assertThat(effects("counter")).extracting(e -> e.get("opId").asString(""))
                .contains(prefix + "1", prefix + "2", "other-" + prefix + "3");
    }

    @Test
    void failNextDropsTheResponseAfterApplying() throws Exception {
        String scope = unique("dropped");
        send("PUT", "/_faults/counter", "{\"failNext\":1}", Map.of());

        assertThatThrownBy(() -> send("POST", "/counter/apply", "{}", Map.of("X-ToolOnce-Scope", scope)))
                .isInstanceOf(IOException.class);

        assertThat(effect("counter", scope).get("count").asInt()).isEqualTo(1);
        JsonNode injected = json(send("GET", "/_faults", null, Map.of())).get("injected").get("counter");
        assertThat(injected.get("dropResponse").asInt()).isEqualTo(1);
        assertThat(injected.get("failNext").asInt()).isEqualTo(1);
        assertThat(send("POST", "/counter/apply", "{}", Map.of("X-ToolOnce-Scope", scope)).statusCode())
                .isEqualTo(200);
    }

    @Test
    void refusedRequestsApplyNothing() throws Exception {
        String key = unique("refused");
        String body = "{\"amount\":3,\"currency\":\"EUR\"}";

        send("PUT", "/_faults/payments", "{\"rate429\":1.0}", Map.of());
        var limited = send("POST", "/payments/charges", body, Map.of("Idempotency-Key", key));
        send("PUT", "/_faults/payments", "{\"rate5xx\":1.0}", Map.of());
        var unavailable = send("POST", "/payments/charges", body, Map.of("Idempotency-Key", key));

        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("Retry-After")).contains("1");
        assertThat(unavailable.statusCode()).isEqualTo(503);
        assertThat(effects("payments")).noneMatch(e -> e.get("effectKey").stringValue().equals(key));
        JsonNode injected = json(send("GET", "/_faults", null, Map.of())).get("injected").get("payments");
        assertThat(injected.get("http429").asInt()).isEqualTo(1);
        assertThat(injected.get("http5xx").asInt()).isEqualTo(1);
    }

    private static JsonNode effect(String tool, String effectKey) throws Exception {
        return effects(tool).stream()
                .filter(e -> e.get("effectKey").stringValue().equals(effectKey))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no effect " + tool + "/" + effectKey));
    }

    private static List<JsonNode> effects(String tool) throws Exception {
        List<JsonNode> effects = new ArrayList<>();
        json(send("GET", "/_ledger?tool=" + tool, null, Map.of())).get("effects").forEach(effects::add);
        return effects;
    }

    private static HttpResponse<String> send(String method, String path, String body, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .method(method, body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) {
        return Json.parse(response.body());
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    private static String freshDatabase() {
        return TestStack.get().freshDatabase("sandbox");
    }

    private static int freePort() {
        return ServiceProcess.freePort();
    }
}
