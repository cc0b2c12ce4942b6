package dev.toolonce.boot.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.toolonce.agent.task.Plan;
import dev.toolonce.agent.task.Step;
import dev.toolonce.agent.task.StepSpec;
import dev.toolonce.agent.task.TaskEngine;
import dev.toolonce.security.Role;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.TestStack;
import dev.toolonce.testsupport.TestTokens;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Issue 19: the starter's task API is off unless enabled, and an application that enables it without a credential
 * source refuses to start, naming the properties; enabled and secured, it answers nobody without a credential.
 */
class TaskApiSecurityIT {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class WebAgent {
    }

    private static Map<String, Object> props(int port) {
        TestStack stack = TestStack.get();
        Map<String, Object> p = new HashMap<>(Map.of("server.port", port, "server.address", "127.0.0.1",
                "spring.datasource.url", stack.freshDatabase("task_api"), "spring.datasource.username", "postgres",
                "spring.datasource.password", "", "spring.flyway.enabled", "false",
                "spring.kafka.bootstrap-servers", stack.kafkaBootstrap(),
                "toolonce.agent.consumer-group", "task-api-" + UUID.randomUUID(), "toolonce.agent.resume-on-start", "false"));
        p.put("toolonce.signing.keyring-file", TestKeys.file().toString());
        return p;
    }

    private static int get(int port, String path, String bearer) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void byDefaultThereIsNoTaskApi() throws Exception {
        int port = ServiceProcess.freePort();
        Map<String, Object> p = props(port);
        p.put("toolonce.security.tokens-file", TestTokens.file().toString());
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(WebAgent.class)
                .web(WebApplicationType.SERVLET).properties(p).run()) {
            assertThat(app.getBeanNamesForType(TaskController.class)).isEmpty();
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> get(port, "/tasks", TestTokens.admin()) != 401);
            assertThat(get(port, "/tasks", TestTokens.admin())).isEqualTo(404);
        }
    }

    @Test
    void withoutAKeyringTheAgentRefusesToStartNamingTheProperty() {
        Map<String, Object> p = props(ServiceProcess.freePort());
        p.remove("toolonce.signing.keyring-file");

        assertThatThrownBy(() -> new SpringApplicationBuilder(WebAgent.class).web(WebApplicationType.SERVLET)
                .properties(p).run().close())
                .rootCause().isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("toolonce.signing.keyring-file is not set").hasMessageContaining("no unsigned mode");
        p.put("toolonce.signing.keyring-file", TestKeys.file() + ".missing");
        assertThatThrownBy(() -> new SpringApplicationBuilder(WebAgent.class).web(WebApplicationType.SERVLET)
                .properties(p).run().close())
                .rootCause().hasMessageContaining("no such file");
    }

    @Test
    void enabledWithoutACredentialSourceTheApplicationRefusesToStartNamingWhatToSet() {
        Map<String, Object> p = props(ServiceProcess.freePort());
        p.put("toolonce.agent.api", "true");

        assertThatThrownBy(() -> new SpringApplicationBuilder(WebAgent.class).web(WebApplicationType.SERVLET)
                .properties(p).run().close())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("toolonce.agent.api=true")
                .hasMessageContaining("toolonce.security.tokens-file");
    }

    @Test
    void aServiceThatMayNotStopStartsWithATaskApiThatRefusesEveryone() throws Exception {
        int port = ServiceProcess.freePort();
        Map<String, Object> p = props(port);
        p.put("toolonce.agent.api", "true");
        p.put("toolonce.agent.api-unsecured", "deny-all");
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(WebAgent.class)
                .web(WebApplicationType.SERVLET).properties(p).run()) {
            assertThat(get(port, "/tasks", null)).isEqualTo(401);
            assertThat(get(port, "/tasks", TestTokens.admin())).as("no token is valid without a credential source")
                    .isEqualTo(401);
        }
    }

    @Test
    void enabledAndSecuredItAnswersNobodyWithoutACredential() throws Exception {
        int port = ServiceProcess.freePort();
        Map<String, Object> p = props(port);
        p.put("toolonce.agent.api", "true");
        p.put("toolonce.security.tokens-file", TestTokens.file().toString());
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(WebAgent.class)
                .web(WebApplicationType.SERVLET).properties(p).run()) {
            assertThat(get(port, "/tasks", null)).isEqualTo(401);
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> get(port, "/tasks", TestTokens.admin()) == 200);
            assertThat(get(port, "/tasks/any", TestTokens.admin())).as("an unknown task").isEqualTo(404);
        }
    }

    /** Issue 19: task ids are each tenant's own; the API finds a task by tenant and id, and never across tenants. */
    @Test
    void twoTenantsTasksOfOneIdAreEachFoundByTheirOwnTenant() throws Exception {
        int port = ServiceProcess.freePort();
        Map<String, Object> p = props(port);
        p.put("toolonce.agent.api", "true");
        p.put("toolonce.security.tokens-file", TestTokens.file().toString());
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(WebAgent.class)
                .web(WebApplicationType.SERVLET).properties(p).run()) {
            TaskEngine tasks = app.getBean(TaskEngine.class);
            StepSpec step = StepSpec.of("1", "tickets", "create", Map.of("title", "seat")).withApproval();
            tasks.submit(Plan.of("acme", "shared", step));
            tasks.submit(Plan.of("globex", "shared", step));
            String acme = TestTokens.create("shared-acme", Role.VIEWER, "acme");
            await().atMost(Duration.ofSeconds(5)).until(() -> get(port, "/tasks/shared", acme) == 200);

            assertThat(get(port, "/tasks/shared", TestTokens.admin())).as("an id two of the principal's tenants use")
                    .isEqualTo(409);
            assertThat(get(port, "/tasks/shared?tenant=globex", TestTokens.admin())).isEqualTo(200);
            assertThat(get(port, "/tasks/shared?tenant=globex", acme)).as("another tenant's task, named").isEqualTo(404);
            assertThat(get(port, "/tasks/shared?tenant=initech", TestTokens.admin())).isEqualTo(404);
            assertThat(tasks.steps("globex", "shared")).extracting(Step::key).containsExactly("globex:shared:1:1");
        }
    }
}
