package dev.toolonce.springai;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.toolonce.agent.call.LocalCalls;
import dev.toolonce.agent.call.ToolCalls;
import dev.toolonce.agent.publish.IntentPublisher;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The auto-configuration against a real HTTP catalogue (a JDK server answering as the executor does): the tools it
 * offers, the credential it sends, and when it stays away. No call is made, so no database is reached.
 */
class ToolOnceSpringAiAutoConfigurationTest {
    private static final String CATALOGUE = """
            {"catalogueVersion": 1, "tools": [
              {"name": "payments", "description": "Card payments.", "capabilities": ["NATIVE_IDEMPOTENCY"],
               "operations": [{"name": "charge", "description": "Charges.", "guarantee": "EXACTLY_ONE_EFFECT",
                               "destructive": true, "approval": "none",
                               "inputSchema": {"type": "object", "required": ["amount"]}}]},
              {"name": "email", "description": "Mail.", "capabilities": [],
               "operations": [{"name": "send", "description": "Sends.", "guarantee": "AT_MOST_ONE_EFFECT_OR_REVIEW",
                               "destructive": true, "approval": "required", "inputSchema": null}]}]}
            """;
    private final AtomicReference<String> authorization = new AtomicReference<>();
    /** How many catalogue requests are answered 503 (an executor still starting) before the catalogue itself. */
    private final AtomicInteger unavailable = new AtomicInteger();
    private HttpServer executor;
    private ApplicationContextRunner runner;
    private final DriverManagerDataSource unused = new DriverManagerDataSource("jdbc:postgresql://127.0.0.1:1/none");

    @BeforeEach
    void start() throws Exception {
        executor = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        executor.createContext("/executor/catalogue", exchange -> {
            authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
            if (unavailable.getAndDecrement() > 0) {
                exchange.sendResponseHeaders(503, -1);
                exchange.close();
                return;
            }
            byte[] body = CATALOGUE.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        executor.start();
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ToolOnceSpringAiAutoConfiguration.class))
                .withBean(ToolCalls.class, () -> new ToolCalls(unused, new TransactionTemplate(),
                        new IntentPublisher("agent", "t", "/s", null), "agent", Duration.ofMinutes(1)));
    }

    @AfterEach
    void stop() {
        executor.stop(0);
    }

    @Test
    void theCatalogueOrTheChosenSubsetBecomesToolsNamedForModels() {
        runner.withPropertyValues("toolonce.spring-ai.executor-url=http://127.0.0.1:" + executor.getAddress().getPort(),
                "toolonce.spring-ai.token=tot_viewer", "toolonce.spring-ai.tenant=acme").run(context -> {
            ToolCallback[] tools = context.getBean(ToolOnceTools.class).getToolCallbacks();
            assertThat(Arrays.stream(tools).map(t -> t.getToolDefinition().name()))
                    .containsExactly("payments_charge", "email_send");
            assertThat(tools[0].getToolDefinition().inputSchema()).contains("\"required\":[\"amount\"]");
            assertThat(tools[0].getToolDefinition().description()).contains("exactly one effect");
            assertThat(tools[1].getToolDefinition().description()).contains("at most one effect");
            assertThat(authorization.get()).isEqualTo("Bearer tot_viewer");
            assertThat(tools[0].call("{\"amount\": 1}", new ToolContext(java.util.Map.of())))
                    .as("without a turn nothing is sent").contains("NO_TURN");
        });
        runner.withPropertyValues("toolonce.spring-ai.executor-url=http://127.0.0.1:" + executor.getAddress().getPort(),
                "toolonce.spring-ai.token=tot_viewer", "toolonce.spring-ai.tenant=acme",
                "toolonce.spring-ai.tools=email/send").run(context ->
                assertThat(context.getBean(ToolOnceTools.class).getToolCallbacks()).hasSize(1));
    }

    @Test
    void withTheApplicationsDataSourceItsOwnToolMethodsCanBeMadeEffectivelyOnce() {
        runner.withBean(javax.sql.DataSource.class, () -> unused).withPropertyValues(
                "toolonce.spring-ai.executor-url=http://127.0.0.1:" + executor.getAddress().getPort(),
                "toolonce.spring-ai.token=tot_viewer", "toolonce.spring-ai.tenant=acme").run(context -> {
            LocalCalls local = context.getBean(LocalCalls.class);
            assertThat(local.tenantId()).isEqualTo("acme");
            Bookings bookings = new Bookings();
            ToolCallback[] tools = EffectivelyOnce.tools(local, bookings);
            assertThat(tools).hasSize(1);
            assertThat(tools[0].getToolDefinition().name()).isEqualTo("bookTable");
            assertThat(tools[0].getToolDefinition().description()).startsWith("Books a table")
                    .contains("at most once per call");
            assertThat(tools[0].getToolDefinition().inputSchema()).contains("restaurant");
            assertThat(tools[0].call("{\"restaurant\": \"x\"}", new ToolContext(java.util.Map.of())))
                    .as("without a turn the method is not run").contains("NO_TURN");
            assertThat(bookings.calls).isZero();
        });
        runner.withPropertyValues("toolonce.spring-ai.executor-url=http://127.0.0.1:" + executor.getAddress().getPort(),
                "toolonce.spring-ai.token=tot_viewer", "toolonce.spring-ai.tenant=acme").run(context ->
                assertThat(context).doesNotHaveBean(LocalCalls.class));
    }

    /** An application's own tool. */
    static final class Bookings {
        int calls;

        @org.springframework.ai.tool.annotation.Tool(description = "Books a table")
        String bookTable(String restaurant) {
            calls++;
            return "booked " + restaurant;
        }
    }

    @Test
    void withoutAnExecutorUrlItStaysAwayAndWithoutATokenOrTenantItRefusesToStart() {
        runner.run(context -> assertThat(context).doesNotHaveBean(ToolOnceTools.class));
        runner.withPropertyValues("toolonce.spring-ai.executor-url=http://127.0.0.1:" + executor.getAddress().getPort(),
                "toolonce.spring-ai.tenant=acme").run(context -> assertThat(context).hasFailed()
                .getFailure().hasStackTraceContaining("toolonce.spring-ai.token"));
        runner.withPropertyValues("toolonce.spring-ai.executor-url=http://127.0.0.1:" + executor.getAddress().getPort(),
                "toolonce.spring-ai.token=tot_viewer", "toolonce.spring-ai.tools=payments/refund",
                "toolonce.spring-ai.tenant=acme").run(context -> assertThat(context).hasFailed()
                .getFailure().hasStackTraceContaining("no operation payments/refund"));
    }

    @Test
    void anExecutorStillStartingIsAskedAgainAndOneThatStaysAwayStopsTheStartAfterTheWait() {
        unavailable.set(1);
        runner.withPropertyValues("toolonce.spring-ai.executor-url=http://127.0.0.1:" + executor.getAddress().getPort(),
                "toolonce.spring-ai.token=tot_viewer", "toolonce.spring-ai.tenant=acme").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(ToolOnceTools.class).getToolCallbacks()).hasSize(2);
                    assertThat(unavailable.get()).as("the 503 was answered, then the catalogue").isLessThan(0);
                });
        unavailable.set(Integer.MAX_VALUE);
        runner.withPropertyValues("toolonce.spring-ai.executor-url=http://127.0.0.1:" + executor.getAddress().getPort(),
                "toolonce.spring-ai.token=tot_viewer", "toolonce.spring-ai.tenant=acme",
                "toolonce.spring-ai.catalogue-wait=300ms").run(context -> assertThat(context).hasFailed()
                .getFailure().hasStackTraceContaining("answered 503"));
    }
}
