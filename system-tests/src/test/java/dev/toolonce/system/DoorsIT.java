package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.security.Role;
import dev.toolonce.testsupport.TestTokens;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Issue 19: identity at every HTTP door of the running services (executor, relay, result consumer), as they run by
 * default. The endpoints are not listed here by hand: each service's own mappings ({@code /actuator/mappings}, read
 * with an admin token) are enumerated, so an endpoint added later cannot be forgotten. Without a credential every one
 * but the probes answers 401; a viewer changes nothing (403 on every state change); another tenant's call is 404,
 * answered exactly as a missing one; a cross-origin form post and a foreign {@code Host} change nothing.
 */
class DoorsIT {
    private static final Set<String> PROBES = Set.of("/ready", "/live", "/actuator/health", "/actuator/health/liveness",
            "/actuator/health/readiness", "/error");
    /** The console's page (a redirect and the page itself): no data, public by design; its API calls need a token. */
    private static final Set<String> CONSOLE_PAGE = Set.of("/console", "/console/");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static SystemStack stack;

    @BeforeAll
    static void stack() {
        stack = SystemStack.get();
    }

    /** method → path pattern, as the service itself maps them. */
    private static List<String[]> mappings(String base) throws Exception {
        // a token just added to the file counts within half a second
        HttpResponse<String> r = await("mappings of " + base).atMost(Duration.ofSeconds(10))
                .until(() -> send("GET", base + "/actuator/mappings", TestTokens.admin(), null, Map.of()),
                        x -> x.statusCode() == 200);
        List<String[]> out = new ArrayList<>();
        for (JsonNode context : JSON.readTree(r.body()).path("contexts")) {
            for (JsonNode m : context.path("mappings").path("dispatcherServlets").path("dispatcherServlet")) {
                JsonNode c = m.path("details").path("requestMappingConditions");
                for (JsonNode pattern : c.path("patterns")) {
                    List<String> methods = new ArrayList<>();
                    c.path("methods").forEach(x -> methods.add(x.asString()));
                    for (String method : methods.isEmpty() ? List.of("GET") : methods) {
                        out.add(new String[] {method, pattern.asString()});
                    }
                }
            }
        }
        return out;
    }

    private static Map<String, String> services() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("tool-executor", stack.executorUrl);
        s.put("outbox-relay", stack.relayUrl);
        s.put("inbox-consumer", stack.consumerUrl);
        return s;
    }

    @Test
    void everyEndpointOfEveryServiceButTheProbesRefusesARequestWithoutACredential() throws Exception {
        List<String> checked = new ArrayList<>();
        for (Map.Entry<String, String> service : services().entrySet()) {
            for (String[] m : mappings(service.getValue())) {
                String path = concrete(m[1]);
                if (PROBES.contains(m[1])) {
                    continue;
                }
                if (CONSOLE_PAGE.contains(m[1])) {
                    HttpResponse<String> page = send(m[0], service.getValue() + path, null, null, Map.of());
                    assertThat(page.statusCode()).as(m[1]).isIn(200, 302);
                    assertThat(page.body()).as("the console's page holds no data").doesNotContain("\"scope\"");
                    continue;
                }
                HttpResponse<String> r = send(m[0], service.getValue() + path, null, "{}", Map.of());
                assertThat(r.statusCode()).as(service.getKey() + " " + m[0] + " " + m[1] + " without a credential")
                        .isEqualTo(401);
                checked.add(service.getKey() + " " + m[0] + " " + m[1]);
            }
        }
        assertThat(checked).as("the enumeration found the doors").contains("tool-executor POST /review/resolve",
                "tool-executor POST /api/v1/dead-letters/replay", "tool-executor POST /console/tasks-api/**",
                "tool-executor POST /tools/{tool}/resume", "tool-executor GET /actuator/prometheus",
                "outbox-relay POST /relay/stats/reset", "inbox-consumer POST /tasks/{taskId}/steps/{stepId}/approve",
                "inbox-consumer GET /tasks");
        System.out.println("refused without a credential (401): " + checked);
    }

    @Test
    void aViewerChangesNothingAnywhere() throws Exception {
        String viewer = loaded(TestTokens.create("doors-viewer", Role.VIEWER, "*"));
        List<String> checked = new ArrayList<>();
        for (Map.Entry<String, String> service : services().entrySet()) {
            for (String[] m : mappings(service.getValue())) {
                if (m[0].equals("GET") || PROBES.contains(m[1])) {
                    continue;
                }
                HttpResponse<String> r = send(m[0], service.getValue() + concrete(m[1]), viewer, "{}", Map.of());
                assertThat(r.statusCode()).as(service.getKey() + " " + m[0] + " " + m[1] + " as a viewer: " + r.body())
                        .isEqualTo(403);
                checked.add(service.getKey() + " " + m[0] + " " + m[1]);
            }
        }
        assertThat(checked).contains("tool-executor POST /review/resolve", "inbox-consumer POST /tasks/{taskId}/resume");
        assertThat(send("GET", stack.executorUrl + "/review", viewer, null, Map.of()).statusCode()).isEqualTo(200);
        assertThat(send("GET", stack.executorUrl + "/actuator/metrics", viewer, null, Map.of()).statusCode())
                .as("actuator endpoints other than the probes and prometheus are for admins").isEqualTo(403);
        String scrape = loaded(TestTokens.create("doors-scrape", Role.SCRAPE, "*"));
        assertThat(send("GET", stack.executorUrl + "/actuator/prometheus", scrape, null, Map.of()).statusCode())
                .isEqualTo(200);
        assertThat(send("GET", stack.executorUrl + "/review", scrape, null, Map.of()).statusCode()).isEqualTo(403);
    }

    @Test
    void anotherTenantsCallIsAnsweredExactlyAsAMissingOne() throws Exception {
        String acme = loaded(TestTokens.create("doors-acme", Role.OPERATOR, "acme"));
        HttpResponse<String> foreign = send("POST", stack.executorUrl + "/review/resolve", acme,
                "{\"scope\":\"globex/email/send/k-1\",\"action\":\"fail\"}", Map.of());
        HttpResponse<String> missing = send("POST", stack.executorUrl + "/review/resolve", acme,
                "{\"scope\":\"acme/email/send/no-such-key\",\"action\":\"fail\"}", Map.of());

        assertThat(foreign.statusCode()).isEqualTo(404);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(foreign.headers().firstValue("Content-Type")).hasValueSatisfying(
                v -> assertThat(v).startsWith("application/problem+json"));
        assertThat(JSON.readTree(foreign.body()).path("title").asString())
                .isEqualTo(JSON.readTree(missing.body()).path("title").asString());
        assertThat(send("GET", stack.executorUrl + "/review?limit=0", acme, null, Map.of()).statusCode()).isEqualTo(400);
        assertThat(send("GET", stack.executorUrl + "/review?limit=100000", acme, null, Map.of()).statusCode())
                .isEqualTo(400);
    }

    @Test
    void aCrossOriginFormPostAndAForeignHostChangeNothing() throws Exception {
        HttpResponse<String> form = send("POST", stack.executorUrl + "/tools/payments/resume", null,
                "x=1", Map.of("Content-Type", "application/x-www-form-urlencoded", "Origin", "http://evil.example"));
        assertThat(form.statusCode()).as("a browser cannot add the bearer a state change needs").isEqualTo(401);

        int port = URI.create(stack.executorUrl).getPort();
        assertThat(rawStatus(port, "127.0.0.1:" + port, "/review")).isEqualTo(200);
        assertThat(rawStatus(port, "rebound.example:" + port, "/review")).as("DNS rebinding").isEqualTo(400);
    }

    /** Waits until every service has read the token file since {@code bearer} was added to it. */
    private static String loaded(String bearer) {
        for (String base : services().values()) {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> send("GET", base + "/ready-not-a-path", bearer, null, Map.of()).statusCode() != 401);
        }
        return bearer;
    }

    private static String concrete(String pattern) {
        return pattern.replaceAll("\\{[^}]+}", "x").replace("/**", "/x");
    }

    private static HttpResponse<String> send(String method, String url, String bearer, String body,
                                             Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).method(method,
                body == null || method.equals("GET") ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null && !headers.containsKey("Content-Type")) {
            b.header("Content-Type", "application/json");
        }
        headers.forEach(b::header);
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The JDK's client will not send a Host of our choosing: a plain socket does. */
    private static int rawStatus(int port, String host, String path) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + TestTokens.admin()
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String status = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
            return Integer.parseInt(status.split(" ")[1]);
        }
    }
}
