package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.security.Role;
import dev.toolonce.testsupport.TestTokens;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Every sandbox tool, wired only through the generic HTTP adapter, under every fault of the issue: the
 * outcome class the adapter reported (the first state after the claim), the ledger state reached, the
 * effects and requests at the sandbox's ledger, and the injected-fault count (so no case passes because
 * its fault never fired). One executor process for the whole matrix (read timeout 3 s, settle 300 ms);
 * faults are cleared and tools resumed between cases. The payments tool gets a credential from the
 * process environment, which must appear in no log line, result event or ledger row.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ToolMatrixIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String SECRET = "sk_matrix_" + java.util.UUID.randomUUID().toString().replace("-", "");
    /** Tenant {@link #ownKeyTenant}'s own payments key, which the sandbox is told to refuse in one test. */
    private static final String OWN_SECRET = "sk_own_" + java.util.UUID.randomUUID().toString().replace("-", "");
    private static Fixtures f;
    private static LoneExecutor lone;
    /** Has a payments credential of its own ({@link #OWN_SECRET}); every other tenant uses the shared one. */
    private static String ownKeyTenant;
    private static String sharedKeyTenant;

    /** A fault, how to inject it and which injected-fault counter proves it fired. */
    enum Fault {
        LOST_RESPONSE("{\"failNext\":1}", "failNext"),
        STALL_PAST_READ_TIMEOUT("{\"stallMs\":4500}", "stall"),
        HTTP_429_RETRY_AFTER("{\"failStatus\":429,\"failStatusNext\":1}", "status"),
        HTTP_503("{\"failStatus\":503,\"failStatusNext\":1}", "status"),
        HTTP_500("{\"failStatus\":500,\"failStatusNext\":1}", "status"),
        HTTP_409("{\"failStatus\":409,\"failStatusNext\":1}", "status"),
        HTTP_400("{\"failStatus\":400,\"failStatusNext\":1}", "status"),
        HTTP_401("{\"failStatus\":401,\"failStatusNext\":1}", "status");

        final String json;
        final String counter;

        Fault(String json, String counter) {
            this.json = json;
            this.counter = counter;
        }
    }

    /**
     * What must happen.
     *
     * @param firstState the state the first attempt's outcome led to: COMMITTED (applied), FAILED_RETRYABLE
     *                   (retryable), UNKNOWN (indeterminate), FAILED_FINAL (rejected)
     * @param finalState the ledger state reached
     * @param errorCode  the final error code, or null
     * @param effects    business effects at the sandbox ledger
     * @param requests   requests that reached the tool's endpoint (status faults answer before it)
     */
    record Expect(String firstState, String finalState, String errorCode, int effects, int requests) {
    }

    static Stream<Arguments> matrix() {
        List<Arguments> cases = new ArrayList<>();
        for (String tool : List.of("payments", "tickets", "email", "counter")) {
            boolean canLookUp = !tool.equals("email") && !tool.equals("counter");
            boolean nativeIdempotency = tool.equals("payments");
            Expect lost = canLookUp ? new Expect("UNKNOWN", "COMMITTED", null, 1, 1)
                    : new Expect("UNKNOWN", "NEEDS_REVIEW", "OUTCOME_UNKNOWN", 1, 1);
            Expect unknownNothingApplied = canLookUp ? new Expect("UNKNOWN", "COMMITTED", null, 1, 1)
                    : new Expect("UNKNOWN", "NEEDS_REVIEW", "OUTCOME_UNKNOWN", 0, 0);
            Expect fiveHundred = nativeIdempotency ? new Expect("FAILED_RETRYABLE", "COMMITTED", null, 1, 1)
                    : unknownNothingApplied;
            cases.add(Arguments.of(tool, Fault.LOST_RESPONSE, lost));
            cases.add(Arguments.of(tool, Fault.STALL_PAST_READ_TIMEOUT, lost));
            cases.add(Arguments.of(tool, Fault.HTTP_429_RETRY_AFTER, new Expect("FAILED_RETRYABLE", "COMMITTED", null, 1, 1)));
            cases.add(Arguments.of(tool, Fault.HTTP_503, fiveHundred));
            cases.add(Arguments.of(tool, Fault.HTTP_500, fiveHundred));
            cases.add(Arguments.of(tool, Fault.HTTP_409, unknownNothingApplied));
            cases.add(Arguments.of(tool, Fault.HTTP_400, new Expect("FAILED_FINAL", "FAILED_FINAL", "TOOL_REJECTED", 0, 0)));
            cases.add(Arguments.of(tool, Fault.HTTP_401, new Expect("FAILED_FINAL", "FAILED_FINAL", "TOOL_UNAUTHORIZED", 0, 0)));
        }
        return cases.stream();
    }

    @BeforeAll
    static void startExecutor() throws Exception {
        f = new Fixtures(SystemStack.get());
        f.clearFaults();
        ownKeyTenant = f.tenant + "-own";
        sharedKeyTenant = f.tenant + "-shared";
        lone = new LoneExecutor(f.stack, Map.of("PAYMENTS_API_KEY", SECRET, "PAYMENTS_OWN_KEY", OWN_SECRET),
                "--toolonce.executor.tools.payments.credentials.header=Authorization",
                "--toolonce.executor.tools.payments.credentials.env=PAYMENTS_API_KEY",
                "--toolonce.executor.tools.payments.credentials.prefix=Bearer ",
                "--toolonce.executor.tools.payments.credentials.tenants." + ownKeyTenant + ".env=PAYMENTS_OWN_KEY");
    }

    @AfterEach
    void reset() throws Exception {
        f.clearFaults();
        for (String tool : List.of("payments", "tickets", "email", "counter")) {
            f.postJson(lone.url + "/tools/" + tool + "/resume", "");
        }
        f.postJson(lone.url + "/tools/payments/resume?tenant=" + ownKeyTenant, "");
    }

    @AfterAll
    static void stop() {
        if (lone != null) {
            lone.close();
        }
        if (f != null) {
            f.close();
        }
    }

    private static ToolIntent intent(String tool, String key) {
        switch (tool) {
            case "payments":
                return f.payments(key, 1000);
            case "tickets":
                return f.tickets(key);
            case "email":
                return f.email(key);
            default:
                return f.counter(key, "task-" + key, "1", 1);
        }
    }

    private static CallScope scope(ToolIntent i) {
        return new CallScope(i.tenantId(), i.tool(), i.operation(), i.idempotencyKey());
    }

    private static JsonNode effect(ToolIntent i) throws Exception {
        return f.effect(i.arguments().path("opId").asString());
    }

    @Order(1)
    @ParameterizedTest(name = "{0} × {1}")
    @MethodSource("matrix")
    void toolUnderFault(String tool, Fault fault, Expect expect) throws Exception {
        f.faults(tool, fault.json);
        ToolIntent intent = intent(tool, tool + "-" + fault.name().toLowerCase().replace('_', '-'));
        lone.send(intent);

        Map<String, String> call = lone.awaitState(scope(intent), WAIT, "COMMITTED", "NEEDS_REVIEW", "FAILED_FINAL");
        List<String> states = lone.history(scope(intent)).stream().map(a -> a.get("to_state")).toList();
        assertThat(states).as("transitions").contains("STARTED");
        assertThat(states.get(states.indexOf("STARTED") + 1)).as("first outcome; transitions " + states)
                .isEqualTo(expect.firstState());
        assertThat(call.get("state")).as("final state; transitions " + states).isEqualTo(expect.finalState());
        assertThat(call.get("error_code")).isEqualTo(expect.errorCode());
        JsonNode effect = effect(intent);
        assertThat(effect == null ? 0 : effect.path("count").asInt()).as("effects").isEqualTo(expect.effects());
        assertThat(effect == null ? 0 : effect.path("requests").asInt()).as("requests").isEqualTo(expect.requests());
        assertThat(f.injected(tool, fault.counter)).as("injected " + fault.counter).isEqualTo(1);
        if (fault == Fault.HTTP_401) {
            pausedUntilResumed(tool);
        }
    }

    /** After a 401 the tool's next call waits, unclaimed, until an operator resumes the tool. */
    private void pausedUntilResumed(String tool) throws Exception {
        List<String> paused = new ArrayList<>();
        f.getJson(lone.url + "/tools/paused").forEach(p -> paused.add(p.path("tool").asString() + " "
                + p.path("tenant_id").asString()));
        assertThat(paused).as("the shared credential was refused: paused for every tenant").contains(tool + " *");
        ToolIntent next = intent(tool, tool + "-after-401");
        lone.send(next);
        lone.awaitState(scope(next), WAIT, "PLANNED");
        Thread.sleep(1500); // several dispatcher rounds: a paused tool's call must not be claimed
        assertThat(lone.call(scope(next))).containsEntry("state", "PLANNED").containsEntry("attempts", "0");
        var resumed = f.postJson(lone.url + "/tools/" + tool + "/resume", "");
        assertThat(resumed.body()).contains("\"resumed\":true");
        assertThat(lone.awaitState(scope(next), WAIT, "COMMITTED", "NEEDS_REVIEW", "FAILED_FINAL"))
                .containsEntry("state", "COMMITTED");
        assertThat(effect(next).path("count").asInt()).isEqualTo(1);
    }

    private static ToolIntent payment(String tenant, String key) {
        var args = tools.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("opId", tenant + ":" + key)
                .put("amount", 1000).put("currency", "EUR");
        return new ToolIntent(null, tenant, "payments", "charge", key, args, "task-" + key, "1", null);
    }

    /**
     * Issue 19, point 6: the sandbox refuses one tenant's own key (a revoked key) and accepts the shared one. That
     * tenant's call fails and pauses payments for that tenant only; another tenant's calls of payments, sent after
     * the held one (the claim takes calls in id order), go on. Only an admin of that tenant or of every tenant may lift
     * the pause; resuming '*' leaves it in place.
     */
    @Order(2)
    @Test
    void aTenantsRefusedOwnCredentialPausesThePaymentsToolForThatTenantOnly() throws Exception {
        f.faults("payments", "{\"refusedAuthorization\":\"Bearer " + OWN_SECRET + "\"}");
        ToolIntent refused = payment(ownKeyTenant, "own-key-refused");
        lone.send(refused);
        assertThat(lone.awaitState(scope(refused), WAIT, "COMMITTED", "NEEDS_REVIEW", "FAILED_FINAL"))
                .containsEntry("state", "FAILED_FINAL").containsEntry("error_code", "TOOL_UNAUTHORIZED");
        assertThat(f.injected("payments", "refusedAuthorization")).as("the tenant's own key was sent and refused")
                .isEqualTo(1);
        List<String> paused = new ArrayList<>();
        f.getJson(lone.url + "/tools/paused").forEach(p -> paused.add(p.path("tool").asString() + " "
                + p.path("tenant_id").asString()));
        assertThat(paused).containsExactly("payments " + ownKeyTenant);

        ToolIntent held = payment(ownKeyTenant, "held");
        lone.send(held);
        lone.awaitState(scope(held), WAIT, "PLANNED");
        ToolIntent other = payment(sharedKeyTenant, "goes-on");
        lone.send(other);
        assertThat(lone.awaitState(scope(other), WAIT, "COMMITTED", "NEEDS_REVIEW", "FAILED_FINAL"))
                .as("another tenant's call of the same tool, with the shared key").containsEntry("state", "COMMITTED");
        assertThat(effect(other).path("count").asInt()).isEqualTo(1);
        assertThat(lone.call(scope(held))).as("claimed after the held call, which waits")
                .containsEntry("state", "PLANNED").containsEntry("attempts", "0");

        String tenantAdmin = TestTokens.create("matrix-own-admin", Role.ADMIN, ownKeyTenant);
        await().atMost(Duration.ofSeconds(10)).until(() -> post("/tools/payments/resume", tenantAdmin) != 401);
        assertThat(post("/tools/payments/resume", tenantAdmin)).as("'*' needs an admin of every tenant").isEqualTo(403);
        assertThat(post("/tools/payments/resume?tenant=" + sharedKeyTenant, tenantAdmin)).as("another tenant's")
                .isEqualTo(404);
        assertThat(f.postJson(lone.url + "/tools/payments/resume", "").body()).as("no pause of every tenant to lift")
                .contains("\"resumed\":false");
        assertThat(lone.call(scope(held))).containsEntry("state", "PLANNED");

        f.clearFaults(); // the operator fixed the tenant's key
        assertThat(post("/tools/payments/resume?tenant=" + ownKeyTenant, tenantAdmin)).isEqualTo(200);
        assertThat(lone.awaitState(scope(held), WAIT, "COMMITTED", "NEEDS_REVIEW", "FAILED_FINAL"))
                .containsEntry("state", "COMMITTED");
        assertThat(effect(held).path("count").asInt()).isEqualTo(1);
        assertThat(lone.query("SELECT tenant_id, principal, was_paused::text AS was_paused FROM executor.tool_resume_audit"
                + " WHERE principal = 'matrix-own-admin'")).singleElement().satisfies(r -> assertThat(r)
                .containsEntry("tenant_id", ownKeyTenant).containsEntry("was_paused", "true"));
    }

    /** @return the status of a POST to the executor under {@code bearer} */
    private static int post(String path, String bearer) throws Exception {
        return java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(lone.url + path)).header("Authorization", "Bearer " + bearer)
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
                java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Order(3)
    @Test
    void theCredentialFromTheEnvironmentAppearsInNoLogLineResultEventOrLedgerRow() throws Exception {
        ToolIntent pay = intent("payments", "secret-check");
        lone.send(pay);
        lone.awaitState(scope(pay), WAIT, "COMMITTED");
        String log = lone.process.logTail(1_000_000);
        assertThat(log).as("the credential was configured (masked)").contains("Authorization: ****");
        assertThat(log).as("the tenant's own credential was configured (masked)")
                .contains("tenant " + ownKeyTenant + " Authorization: ****");
        assertThat(log).doesNotContain(SECRET).doesNotContain(OWN_SECRET);
        for (String table : List.of("tool_call", "tool_call_attempt", "outbox_event", "paused_tool", "review_audit",
                "tool_resume_audit", "pending_reply", "inbox_message")) {
            assertThat(lone.query("SELECT t::text AS row FROM executor." + table + " t"))
                    .as(table).allSatisfy(r -> assertThat(r.get("row")).doesNotContain(SECRET).doesNotContain(OWN_SECRET));
        }
        assertThat(lone.query("SELECT count(*) AS n FROM executor.outbox_event")).singleElement()
                .satisfies(r -> assertThat(Long.parseLong(r.get("n"))).isPositive());
    }

    @Order(4)
    @Test
    void badToolConfigurationsAreRefusedAtStartUpNamingToolAndField() {
        assertThatThrownBy(() -> new LoneExecutor(f.stack,
                "--toolonce.executor.tools.tickets.operations.create.path=/tickets/{ticketId}").close())
                .hasMessageContaining("tool 'tickets': toolonce.executor.tools.tickets.operations.create.path "
                        + "has an unknown placeholder {ticketId}");
        assertThatThrownBy(() -> new LoneExecutor(f.stack,
                "--toolonce.executor.tools.email.capabilities=IRREVERSIBLE,LOOKUP_BY_KEY").close())
                .hasMessageContaining("tool 'email': toolonce.executor.tools.email.operations.send.lookup is required: "
                        + "the tool declares LOOKUP_BY_KEY");
        assertThatThrownBy(() -> new LoneExecutor(f.stack,
                "--toolonce.executor.tools.counter.capabilities=EXACTLY_ONCE").close())
                .hasMessageContaining("tool 'counter': toolonce.executor.tools.counter.capabilities has an unknown "
                        + "capability 'EXACTLY_ONCE'");
    }
}
