package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.security.Role;
import dev.toolonce.testsupport.TestTokens;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Issue 22, point 3, against the running executor: the catalogue behind a credential, and intake holding arguments to
 * the operation's {@code input-schema} before any effect.
 */
class ToolCatalogueIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static Fixtures f;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void setUp() {
        f = new Fixtures(SystemStack.get());
    }

    @AfterAll
    static void tearDown() {
        f.close();
    }

    @Test
    void theCatalogueListsEachOperationWithItsSchemaAndGuaranteeForAnyViewerAndNobodyElse() throws Exception {
        String viewer = TestTokens.create("catalogue-it", Role.VIEWER, f.tenant);

        HttpResponse<String> anonymous = get(null);
        // a token just added to the file counts within half a second
        HttpResponse<String> seen = await().atMost(Duration.ofSeconds(10)).until(() -> get(viewer),
                r -> r.statusCode() != 401);

        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(seen.statusCode()).isEqualTo(200);
        JsonNode charge = operation(new ObjectMapper().readTree(seen.body()), "payments", "charge");
        assertThat(charge.path("guarantee").asString()).isEqualTo("EXACTLY_ONE_EFFECT");
        assertThat(charge.path("inputSchema").path("properties").path("amount").path("type").asString())
                .isEqualTo("integer");
        assertThat(operation(new ObjectMapper().readTree(seen.body()), "email", "send").path("guarantee").asString())
                .isEqualTo("AT_MOST_ONE_EFFECT_OR_REVIEW");
    }

    @Test
    void argumentsThatBreakTheSchemaAreRefusedNamingTheFieldAndNeverBecomeACall() throws Exception {
        String key = "schema-" + f.tenant;
        ToolIntent charge = new ToolIntent(null, f.tenant, "payments", "charge", key,
                JsonNodeFactory.instance.objectNode().put("amount", "12.50").put("currency", "EUR")
                        .put("opId", f.tenant + ":" + key), null, null, null);
        try (ResultWatcher results = f.results()) {
            String id = f.send(charge);

            List<ToolResult> answers = results.awaitResult(id, WAIT);

            assertThat(answers).singleElement().satisfies(r -> {
                assertThat(r.status()).isEqualTo(ResultStatus.REJECTED);
                assertThat(r.error().code()).isEqualTo("INVALID_ARGUMENTS");
                assertThat(r.error().message()).contains("input-schema of payments/charge").contains("/amount: ");
            });
        }
        assertThat(f.row("SELECT id FROM executor.tool_call WHERE tenant_id = ? AND idempotency_key = ?", f.tenant,
                key)).as("no call in the ledger").isEmpty();
        assertThat(f.effect(f.tenant + ":" + key)).as("no effect at the sandbox").isNull();
    }

    private static JsonNode operation(JsonNode catalogue, String tool, String operation) {
        for (JsonNode t : catalogue.path("tools")) {
            if (tool.equals(t.path("name").asString())) {
                for (JsonNode o : t.path("operations")) {
                    if (operation.equals(o.path("name").asString())) {
                        return o;
                    }
                }
            }
        }
        throw new AssertionError("no " + tool + "/" + operation + " in " + catalogue);
    }

    private HttpResponse<String> get(String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(f.stack.executorUrl + "/executor/catalogue"));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
