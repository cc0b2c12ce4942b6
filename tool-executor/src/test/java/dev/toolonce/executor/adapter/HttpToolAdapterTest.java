package dev.toolonce.executor.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.outcome.LookupOutcome;
import dev.toolonce.core.outcome.ToolOutcome;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.ObjectMapper;

/** The generic adapter against a scripted local HTTP server. */
class HttpToolAdapterTest {
    private static final String SECRET = "sk_live_very_secret_123";
    private static final String GLOBEX_SECRET = "sk_live_globex_own_456";
    private static final String INITECH_SECRET = "initech-key-789";
    private static final Map<String, String> ENVIRONMENT = Map.of("PAYMENTS_API_KEY", SECRET,
            "PAYMENTS_GLOBEX_KEY", GLOBEX_SECRET, "PAYMENTS_INITECH_KEY", INITECH_SECRET);
    private static final String NONE = "<none>";

    /** What the server saw. */
    record Seen(String method, String uri, Map<String, String> headers, String body) {
    }

    private HttpServer server;
    private final List<Seen> seen = new ArrayList<>();
    private volatile int status = 201;
    private volatile String answer = "{\"id\":\"ch_1\",\"amount\":1000}";
    private volatile String retryAfter;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            Map<String, String> headers = new HashMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), v.get(0)));
            synchronized (seen) {
                seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().toString(), headers,
                        new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            }
            if (retryAfter != null) {
                exchange.getResponseHeaders().add("Retry-After", retryAfter);
            }
            byte[] out = answer.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, out.length == 0 ? -1 : out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private HttpToolAdapter payments(Map<String, String> extra) {
        Map<String, String> p = new HashMap<>(Map.of(
                "base-url", "http://127.0.0.1:" + server.getAddress().getPort(),
                "capabilities", "NATIVE_IDEMPOTENCY,LOOKUP_BY_KEY,COMPENSATION",
                "idempotency-window", "24h", "idempotency-header", "Idempotency-Key",
                "key-reused-marker", "idempotency_key_reused",
                "credentials.header", "Authorization", "credentials.env", "PAYMENTS_API_KEY",
                "credentials.prefix", "Bearer ",
                "operations.charge.path", "/v1/charges",
                "operations.charge.body", "{\"amount\": \"{arg./amount}\", \"reference\": \"{providerKey}\"}"));
        p.put("operations.charge.lookup.path", "/v1/charges?key={providerKey}");
        p.put("operations.charge.lookup.found-status", "200");
        p.put("operations.charge.lookup.absent-status", "404");
        p.put("operations.charge.compensation.path", "/v1/refunds");
        p.put("operations.charge.compensation.body", "{\"charge\": \"{externalId}\"}");
        p.putAll(extra);
        p.values().removeIf(NONE::equals);
        return new HttpAdapterFactory(Duration.ofSeconds(60), ENVIRONMENT::get, new ObjectMapper())
                .build("payments", Calls.tool("payments", p));
    }

    private static ToolCall charge() {
        return Calls.call("payments", "charge", "order-1", "{\"amount\":1000,\"currency\":\"EUR\"}");
    }

    private Seen last() {
        synchronized (seen) {
            return seen.get(seen.size() - 1);
        }
    }

    @Test
    void sendsTheRenderedRequestWithKeyAndCredentialButNoSandboxHeadersUnlessAskedFor() {
        ToolOutcome outcome = payments(Map.of()).execute(charge());
        assertThat(outcome).isEqualTo(new ToolOutcome.Applied("ch_1", "{\"id\":\"ch_1\",\"amount\":1000}"));
        Seen s = last();
        String key = ProviderKey.of(charge().scope()).value();
        assertThat(s.method()).isEqualTo("POST");
        assertThat(s.uri()).isEqualTo("/v1/charges");
        assertThat(s.body()).isEqualTo("{\"amount\":1000,\"reference\":\"" + key + "\"}");
        assertThat(s.headers()).containsEntry("idempotency-key", key).containsEntry("authorization", "Bearer " + SECRET)
                .doesNotContainKeys("x-toolonce-scope", "x-toolonce-fence");

        payments(Map.of("sandbox-headers", "true")).execute(charge());
        assertThat(last().headers()).containsEntry("x-toolonce-scope", "acme/payments/charge/order-1")
                .containsEntry("x-toolonce-fence", "3");
    }

    @Test
    void theIntentsTraceGoesToTheToolAndNoneIsInventedWithoutOne() {
        String trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        ToolCall c = charge();
        ToolCall traced = new ToolCall(c.id(), c.scope(), c.providerKey(), c.requestHash(), c.argumentsJson(), c.state(),
                c.fence(), c.callVersion(), c.attempts(), null, null, null, null, null, null, c.intentMessageId(), trace,
                null, c.facts());

        payments(Map.of()).execute(traced);
        assertThat(last().headers()).containsEntry("traceparent", trace);

        payments(Map.of()).execute(charge());
        assertThat(last().headers()).doesNotContainKey("traceparent");
    }

    @Test
    void withoutABodyTemplateTheArgumentsGoAsSent() {
        HttpToolAdapter plain = payments(Map.of("operations.charge.body", NONE));
        plain.execute(Calls.call("payments", "charge", "k", "{ \"currency\":\"EUR\",  \"amount\":5 }"));
        assertThat(last().body()).isEqualTo("{ \"currency\":\"EUR\",  \"amount\":5 }");
    }

    @Test
    void statusesAreClassifiedWithTheSafeDefaults() {
        HttpToolAdapter a = payments(Map.of());
        assertThat(outcome(a, 429, "{}", "2")).isEqualTo(new ToolOutcome.Retryable("429 from the tool, not applied",
                Duration.ofSeconds(2)));
        assertThat(outcome(a, 503, "{}", null)).isInstanceOf(ToolOutcome.Retryable.class); // native idempotency
        assertThat(outcome(a, 409, "{}", null)).isInstanceOf(ToolOutcome.Indeterminate.class);
        assertThat(outcome(a, 418, "{}", null)).isInstanceOf(ToolOutcome.Indeterminate.class);
        assertThat(outcome(a, 302, "{}", null)).isInstanceOf(ToolOutcome.Indeterminate.class);
        assertThat((ToolOutcome.Rejected) outcome(a, 400, "{\"error\":\"amount\"}", null))
                .extracting(ToolOutcome.Rejected::code, ToolOutcome.Rejected::pauseTool, ToolOutcome.Rejected::needsReview)
                .containsExactly("TOOL_REJECTED", false, false);
        assertThat((ToolOutcome.Rejected) outcome(a, 401, "{}", null))
                .extracting(ToolOutcome.Rejected::code, ToolOutcome.Rejected::pauseTool).containsExactly("TOOL_UNAUTHORIZED", true);
        assertThat((ToolOutcome.Rejected) outcome(a, 403, "{}", null)).extracting(ToolOutcome.Rejected::pauseTool).isEqualTo(true);
        assertThat((ToolOutcome.Rejected) outcome(a, 422, "{\"error\":\"idempotency_key_reused\"}", null))
                .extracting(ToolOutcome.Rejected::code, ToolOutcome.Rejected::needsReview)
                .containsExactly("PROVIDER_KEY_REUSED", true);

        HttpToolAdapter plain = payments(Map.of("capabilities", "LOOKUP_BY_KEY",
                "idempotency-window", NONE, "operations.charge.compensation.path", NONE,
                "operations.charge.compensation.body", NONE));
        assertThat(outcome(plain, 500, "{}", null)).isInstanceOf(ToolOutcome.Indeterminate.class);
        assertThat(outcome(plain, 503, "{}", null)).isInstanceOf(ToolOutcome.Indeterminate.class);
    }

    @Test
    void perStatusOverridesWin() {
        HttpToolAdapter a = payments(Map.of("statuses.409", "rejected", "statuses.418", "applied",
                "statuses.503", "indeterminate", "statuses.402", "review"));
        assertThat(outcome(a, 409, "{}", null)).isInstanceOf(ToolOutcome.Rejected.class);
        assertThat(outcome(a, 418, "{\"id\":\"x\"}", null)).isEqualTo(new ToolOutcome.Applied("x", "{\"id\":\"x\"}"));
        assertThat(outcome(a, 503, "{}", null)).isInstanceOf(ToolOutcome.Indeterminate.class);
        assertThat(((ToolOutcome.Rejected) outcome(a, 402, "{}", null)).needsReview()).isTrue();
    }

    @Test
    void theSecretNeverLeavesInAnOutcomeOrAToString() {
        HttpToolAdapter a = payments(Map.of());
        ToolOutcome echoed = outcome(a, 400, "{\"error\":\"bad key Bearer " + SECRET + "\"}", null);
        assertThat(echoed.toString()).doesNotContain(SECRET).contains("****");
        ToolOutcome applied = outcome(a, 201, "{\"id\":\"ch_2\",\"echo\":\"" + SECRET + "\"}", null);
        assertThat(applied.toString()).doesNotContain(SECRET);
        assertThat(a.toString()).doesNotContain(SECRET).contains("Authorization: ****");
        assertThat(outcome(a, 401, "{}", null).toString()).doesNotContain(SECRET);
    }

    /** globex has a key of its own in the shared header; initech one in a header of its own, without prefix. */
    private HttpToolAdapter perTenant() {
        return payments(Map.of("credentials.tenants.globex.env", "PAYMENTS_GLOBEX_KEY",
                "credentials.tenants.initech.env", "PAYMENTS_INITECH_KEY",
                "credentials.tenants.initech.header", "X-Api-Key", "credentials.tenants.initech.prefix", ""));
    }

    private static ToolCall chargeOf(String tenant) {
        return Calls.call(tenant, "payments", "charge", "order-1", "{\"amount\":1000,\"currency\":\"EUR\"}");
    }

    @Test
    void eachCallIsSentWithItsTenantsOwnCredentialOrElseTheSharedOne() {
        HttpToolAdapter a = perTenant();
        a.execute(chargeOf("globex"));
        assertThat(last().headers()).containsEntry("authorization", "Bearer " + GLOBEX_SECRET);
        a.execute(chargeOf("acme"));
        assertThat(last().headers()).as("a tenant not listed: the shared credential")
                .containsEntry("authorization", "Bearer " + SECRET);
        a.execute(chargeOf("initech"));
        assertThat(last().headers()).as("its own header and prefix").containsEntry("x-api-key", INITECH_SECRET)
                .doesNotContainKey("authorization");

        status = 404;
        a.lookup(chargeOf("globex"));
        assertThat(last().headers()).as("lookups too").containsEntry("authorization", "Bearer " + GLOBEX_SECRET);
        status = 201;
        answer = "{\"id\":\"re_1\"}";
        a.compensate(Calls.committed(chargeOf("globex"), "ch_1"));
        assertThat(last().uri()).isEqualTo("/v1/refunds");
        assertThat(last().headers()).as("and compensations").containsEntry("authorization", "Bearer " + GLOBEX_SECRET);
    }

    @Test
    void aRefusedOwnCredentialPausesTheToolForItsTenantAndTheSharedOneForEveryTenant() {
        HttpToolAdapter a = perTenant();
        status = 401;
        answer = "{}";
        assertThat((ToolOutcome.Rejected) a.execute(chargeOf("globex")))
                .extracting(ToolOutcome.Rejected::code, ToolOutcome.Rejected::pause)
                .containsExactly("TOOL_UNAUTHORIZED", ToolOutcome.Pause.TENANT);
        assertThat(((ToolOutcome.Rejected) a.execute(chargeOf("acme"))).pause()).isEqualTo(ToolOutcome.Pause.EVERY_TENANT);
        status = 403;
        assertThat(((ToolOutcome.Rejected) a.execute(chargeOf("initech"))).pause()).isEqualTo(ToolOutcome.Pause.TENANT);
        assertThat(((ToolOutcome.Rejected) a.compensate(Calls.committed(chargeOf("globex"), "ch_1"))).pause())
                .isEqualTo(ToolOutcome.Pause.TENANT);
        assertThat(((ToolOutcome.Rejected) payments(Map.of("credentials.header", NONE, "credentials.env", NONE,
                "credentials.prefix", NONE)).execute(chargeOf("globex"))).pause())
                .as("a tool without credentials: nothing is a tenant's own").isEqualTo(ToolOutcome.Pause.EVERY_TENANT);
    }

    @Test
    void everySecretOfTheToolIsRedactedWhicheverTenantsCallTheAnswerComesFrom() {
        HttpToolAdapter a = perTenant();
        for (String tenant : List.of("acme", "globex", "initech")) {
            status = 400;
            answer = "{\"error\":\"keys " + SECRET + " " + GLOBEX_SECRET + " " + INITECH_SECRET + "\"}";
            assertThat(a.execute(chargeOf(tenant)).toString()).as(tenant)
                    .doesNotContain(SECRET, GLOBEX_SECRET, INITECH_SECRET).contains("keys **** **** ****");
            status = 201;
            answer = "{\"id\":\"ch_3\",\"echo\":\"" + GLOBEX_SECRET + "\"}";
            assertThat(a.execute(chargeOf(tenant))).as(tenant)
                    .isEqualTo(new ToolOutcome.Applied("ch_3", "{\"id\":\"ch_3\",\"echo\":\"****\"}"));
            answer = "{\"id\":\"" + INITECH_SECRET + "\"}";
            assertThat(((ToolOutcome.Applied) a.execute(chargeOf(tenant))).externalObjectId())
                    .as("an id that is a secret is not used").isNull();
        }
        assertThat(a.toString()).doesNotContain(SECRET, GLOBEX_SECRET, INITECH_SECRET)
                .contains("Authorization: ****", "tenant globex Authorization: ****", "tenant initech X-Api-Key: ****");
    }

    @Test
    void lookupReadsFoundAndAbsentByTheConfiguredStatuses() {
        HttpToolAdapter a = payments(Map.of());
        status = 200;
        answer = "{\"id\":\"ch_9\"}";
        assertThat(a.lookup(charge())).isEqualTo(new LookupOutcome.Found("ch_9", "{\"id\":\"ch_9\"}"));
        assertThat(last().uri()).isEqualTo("/v1/charges?key=" + ProviderKey.of(charge().scope()).value());
        assertThat(last().headers()).containsEntry("authorization", "Bearer " + SECRET);
        status = 404;
        assertThat(a.lookup(charge())).isEqualTo(new LookupOutcome.Absent());
        status = 500;
        assertThat(a.lookup(charge())).as("may pass: asked again later").isInstanceOf(LookupOutcome.Unavailable.class);
        status = 418;
        assertThat(a.lookup(charge())).isInstanceOf(LookupOutcome.CannotTell.class);
    }

    @Test
    void compensationUsesTheDerivedKeyAndTheExternalId() {
        HttpToolAdapter a = payments(Map.of());
        answer = "{\"id\":\"re_1\"}";
        assertThat(a.compensate(Calls.committed(charge(), "ch_1"))).isEqualTo(new ToolOutcome.Applied("re_1", "{\"id\":\"re_1\"}"));
        assertThat(last().uri()).isEqualTo("/v1/refunds");
        assertThat(last().body()).isEqualTo("{\"charge\":\"ch_1\"}");
        assertThat(last().headers()).containsEntry("idempotency-key", ProviderKey.compensationOf(charge().scope()).value());
    }

    @Test
    void aDryRunSendsItsOwnRequestUnderItsOwnKeyAndIsNeverLookedUp() {
        HttpToolAdapter a = payments(Map.of("operations.charge.dry-run.path", "/v1/charges/validate"));
        ToolCall dry = Calls.call("payments", "charge.dry-run", "order-1", "{\"amount\":1000,\"currency\":\"EUR\"}");
        answer = "{\"valid\":true}";
        status = 200;
        assertThat(a.execute(dry)).isEqualTo(new ToolOutcome.Applied(null, "{\"valid\":true}"));
        assertThat(last().uri()).isEqualTo("/v1/charges/validate");
        assertThat(last().body()).as("no body template: the arguments as received")
                .isEqualTo("{\"amount\":1000,\"currency\":\"EUR\"}");
        assertThat(last().headers().get("idempotency-key")).isEqualTo(ProviderKey.of(dry.scope()).value())
                .isNotEqualTo(ProviderKey.of(charge().scope()).value());
        status = 400;
        answer = "{\"error\":\"bad_request\"}";
        assertThat(a.execute(dry)).isInstanceOf(ToolOutcome.Rejected.class);
        int asked = seen.size();
        assertThat(a.lookup(dry)).as("a dry run has no effect to find").isInstanceOf(LookupOutcome.Absent.class);
        assertThat(seen).as("nothing sent for the lookup").hasSize(asked);
        assertThat(a.compensate(Calls.committed(dry, "x")))
                .isInstanceOf(ToolOutcome.Rejected.class);
    }

    @Test
    void missingArgumentsAreRejectedWithoutSending() {
        ToolOutcome o = payments(Map.of()).execute(Calls.call("payments", "charge", "k", "{\"currency\":\"EUR\"}"));
        assertThat(o).isInstanceOf(ToolOutcome.Rejected.class);
        assertThat(((ToolOutcome.Rejected) o).code()).isEqualTo("INVALID_ARGUMENTS");
        assertThat(seen).isEmpty();
    }

    @Test
    void aStallPastTheReadTimeoutIsIndeterminateAndARefusedConnectionRetryable() throws Exception {
        server.removeContext("/");
        server.createContext("/", exchange -> {
            try {
                Thread.sleep(1500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(201, -1);
            exchange.close();
        });
        HttpToolAdapter slow = payments(Map.of("read-timeout", "300ms"));
        assertThat(slow.execute(charge())).isInstanceOf(ToolOutcome.Indeterminate.class);

        int port = server.getAddress().getPort();
        server.stop(0);
        HttpToolAdapter gone = payments(Map.of("base-url", "http://127.0.0.1:" + port));
        assertThat(gone.execute(charge())).isInstanceOf(ToolOutcome.Retryable.class);
    }

    private ToolOutcome outcome(HttpToolAdapter a, int status, String body, String retryAfter) {
        this.status = status;
        this.answer = body;
        this.retryAfter = retryAfter;
        return a.execute(charge());
    }
}
