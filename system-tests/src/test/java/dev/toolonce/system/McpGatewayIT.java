package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.toolonce.security.Role;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestTokens;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 22, the MCP test: the official MCP Java client against the gateway (its own process, on the system stack).
 * Effects are counted at the sandbox's ledger; the gateway's answers are applied by inbox-consumer, another process.
 */
class McpGatewayIT {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static Fixtures f;
    private static ServiceProcess gateway;
    private static String url;
    private static String operator;
    private static String viewer;
    private static final List<McpSyncClient> clients = new ArrayList<>();

    @BeforeAll
    static void setUp() throws Exception {
        f = new Fixtures(SystemStack.get());
        f.clearFaults();
        operator = TestTokens.create("mcp-it-operator", Role.OPERATOR, f.tenant);
        viewer = TestTokens.create("mcp-it-viewer", Role.VIEWER, f.tenant);
        String catalogue = TestTokens.create("mcp-gateway-catalogue", Role.VIEWER, f.tenant);
        int port = ServiceProcess.freePort();
        url = "http://127.0.0.1:" + port;
        Map<String, String> env = Map.of("TOOLONCE_PG_URL", f.stack.jdbcUrl, "KAFKA_BOOTSTRAP",
                f.stack.infra.kafkaBootstrap(), "EXECUTOR_URL", f.stack.executorUrl,
                "TOOLONCE_GATEWAY_CATALOGUE_TOKEN", catalogue);
        gateway = ServiceProcess.start("mcp-gateway", "dev.toolonce.gateway.GatewayApplication", env,
                List.of("--server.port=" + port, "--toolonce.gateway.answer-wait=10s")).awaitHttpOk(url + "/actuator/health/readiness", WAIT);
    }

    @AfterAll
    static void tearDown() {
        clients.forEach(McpSyncClient::closeGracefully);
        if (gateway != null) {
            gateway.stop();
        }
        f.close();
    }

    @Test
    void theCatalogueIsListedWithAnnotationsDerivedFromWhatToolOnceGuarantees() throws Exception {
        List<McpSchema.Tool> tools = client(operator).listTools().tools();

        McpSchema.Tool charge = tools.stream().filter(t -> t.name().equals("payments_charge")).findFirst().orElseThrow();
        assertThat(charge.annotations().idempotentHint()).as("NATIVE_IDEMPOTENCY: exactly one effect").isTrue();
        assertThat(charge.annotations().destructiveHint()).isTrue();
        assertThat(charge.annotations().readOnlyHint()).isFalse();
        assertThat(charge.inputSchema().get("required")).asString().contains("amount");
        McpSchema.Tool email = tools.stream().filter(t -> t.name().equals("email_send")).findFirst().orElseThrow();
        assertThat(email.annotations().idempotentHint()).as("no lookup: at most one effect or review").isFalse();
        McpSchema.Tool ticket = tools.stream().filter(t -> t.name().equals("tickets_create")).findFirst().orElseThrow();
        assertThat(ticket.annotations().destructiveHint()).as("declared additive in the YAML").isFalse();
    }

    @Test
    void oneCallTwiceWithTheSameKeyIsOneEffectAndTheSecondAnswerIsReplayed() throws Exception {
        McpSyncClient client = client(operator);
        String opId = f.tenant + ":mcp-once";

        McpSchema.CallToolResult first = client.callTool(charge(opId, Map.of("dev.toolonce/idempotency-key", "mcp-1")));
        McpSchema.CallToolResult second = client.callTool(charge(opId, Map.of("dev.toolonce/idempotency-key", "mcp-1")));

        System.out.println("MCP tools/call #1 -> " + text(first) + "\nMCP tools/call #2 -> " + text(second));
        assertThat(first.isError()).isFalse();
        assertThat(text(first)).contains("\"status\":\"COMMITTED\"").contains("\"replayed\":false");
        assertThat(text(second)).contains("\"status\":\"COMMITTED\"").contains("\"replayed\":true");
        assertThat(structured(second).get("externalObjectId")).isEqualTo(structured(first).get("externalObjectId"));
        assertThat(f.charges(opId)).isEqualTo(1);
    }

    @Test
    void thirtyTwoConcurrentIdenticalCallsMakeOneEffect() throws Exception {
        String opId = f.tenant + ":mcp-32";
        McpSyncClient client = client(operator);
        ExecutorService pool = Executors.newFixedThreadPool(32);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<McpSchema.CallToolResult>> answers = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            answers.add(pool.submit(() -> {
                start.await();
                return client.callTool(charge(opId, Map.of("dev.toolonce/idempotency-key", "mcp-32")));
            }));
        }
        start.countDown();

        List<Object> chargeIds = new ArrayList<>();
        for (Future<McpSchema.CallToolResult> a : answers) {
            McpSchema.CallToolResult r = a.get();
            assertThat(text(r)).contains("\"status\":\"COMMITTED\"");
            chargeIds.add(structured(r).get("externalObjectId"));
        }
        pool.shutdown();
        assertThat(chargeIds).hasSize(32).containsOnly(chargeIds.get(0));
        assertThat(f.charges(opId)).isEqualTo(1);
    }

    @Test
    void argumentsThatBreakTheSchemaAreAToolErrorNamingTheFieldAndNothingHappens() throws Exception {
        String opId = f.tenant + ":mcp-bad";
        McpSchema.CallToolResult r = client(operator).callTool(McpSchema.CallToolRequest.builder()
                .name("payments_charge").arguments(Map.of("amount", "12.50", "currency", "EUR", "opId", opId))
                .meta(Map.of("dev.toolonce/idempotency-key", "mcp-bad")).build());

        assertThat(r.isError()).isTrue();
        assertThat(text(r)).contains("INVALID_ARGUMENTS").contains("/amount: ");
        assertThat(f.row("SELECT step_id FROM agent.agent_step WHERE tenant_id = ? AND idempotency_key = ?", f.tenant,
                "mcp-bad")).as("nothing written").isEmpty();
        assertThat(f.charges(opId)).isZero();
    }

    @Test
    void noCredentialIsRefusedPointingToTheResourceMetadataAndAViewerCausesNoEffect() throws Exception {
        HttpResponse<String> anonymous = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                        + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}}")).build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> metadata = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(url + "/.well-known/oauth-protected-resource")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate").orElse(""))
                .contains("resource_metadata=\"" + url + "/.well-known/oauth-protected-resource\"");
        assertThat(metadata.statusCode()).isEqualTo(200);
        assertThat(metadata.body()).contains("\"resource\":\"" + url + "/mcp\"");
        assertThatThrownBy(() -> client(null).initialize()).as("the official client without a token").isNotNull();

        String opId = f.tenant + ":mcp-viewer";
        McpSchema.CallToolResult byViewer = client(viewer).callTool(charge(opId,
                Map.of("dev.toolonce/idempotency-key", "mcp-viewer")));
        assertThat(byViewer.isError()).isTrue();
        assertThat(text(byViewer)).contains("FORBIDDEN");
        assertThat(f.charges(opId)).isZero();
    }

    @Test
    void aToolThatNeedsApprovalSendsNothingUntilAnOperatorApprovesItThroughTheTaskApiThenOnce() throws Exception {
        String opId = f.tenant + ":mcp-mail";
        McpSchema.CallToolRequest mail = McpSchema.CallToolRequest.builder().name("email_send")
                .arguments(Map.of("opId", opId, "to", "a@example.com", "subject", "hello"))
                .meta(new java.util.HashMap<>(Map.of("dev.toolonce/idempotency-key", "mcp-mail")))
                .progressToken("mail-progress").build();
        List<McpSchema.ProgressNotification> progress = new java.util.concurrent.CopyOnWriteArrayList<>();
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(url).endpoint("/mcp")
                .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + operator)).build())
                .requestTimeout(WAIT).progressConsumer(progress::add).build();
        clients.add(client);
        client.initialize();

        McpSchema.CallToolResult held = client.callTool(mail);

        System.out.println("MCP tools/call (approval: required) -> " + text(held));
        assertThat(text(held)).contains("\"status\":\"AWAITING_APPROVAL\"");
        assertThat(progress).as("progress notifications while the call waited").isNotEmpty()
                .allSatisfy(n -> assertThat(n.progressToken()).isEqualTo("mail-progress"));
        assertThat(f.effect(opId)).as("nothing sent before the approval").isNull();
        @SuppressWarnings("unchecked")
        Map<String, Object> approval = (Map<String, Object>) structured(held).get("approval");
        HttpResponse<String> approved = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                        f.stack.consumerUrl + "/tasks/" + approval.get("taskId") + "/steps/call/approve?tenant="
                                + f.tenant)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + operator)
                .POST(HttpRequest.BodyPublishers.ofString("{\"idempotencyKey\": \"" + approval.get("idempotencyKey")
                        + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);

        // asking again under the same key is the same call: it waits (at most the gateway's answer-wait) once more
        McpSchema.CallToolResult sent = await().atMost(WAIT).until(() -> client.callTool(mail),
                r -> text(r).contains("\"status\":\"COMMITTED\""));
        McpSchema.CallToolResult again = client.callTool(mail);

        System.out.println("MCP tools/call after approval -> " + text(sent));
        assertThat(text(sent)).contains("\"status\":\"COMMITTED\"");
        assertThat(text(again)).contains("\"status\":\"COMMITTED\"").contains("\"replayed\":true");
        assertThat(f.effect(opId).path("count").asInt()).as("one email").isEqualTo(1);
    }

    private static McpSchema.CallToolRequest charge(String opId, Map<String, Object> meta) {
        return McpSchema.CallToolRequest.builder().name("payments_charge")
                .arguments(Map.of("amount", 1250, "currency", "EUR", "opId", opId)).meta(meta).build();
    }

    private static McpSyncClient client(String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(url).endpoint("/mcp")
                .requestBuilder(request).build()).requestTimeout(WAIT).build();
        clients.add(client);
        if (token != null) {
            client.initialize();
        }
        return client;
    }

    private static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> structured(McpSchema.CallToolResult r) {
        return (Map<String, Object>) r.structuredContent();
    }

}
