package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.security.Role;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestTokens;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Issue 18: a user's own Spring Boot application on the starter — {@code examples/booking-agent}, the README's worked
 * example with the imports the README shows, its own {@code pom.xml} on the installed starter and its own Flyway
 * migration at {@code db/migration/V1__booking_audit.sql} — built by a Maven run of its own, started with
 * {@code java -jar} in its own process, against the system stack's executor and sandbox, with a relay of its own
 * reading its database's agent outbox. A saga goes through it: reserve, the charge's dry run, the charge after an
 * operator's approval through the starter's task API, the email; one effect per step at the sandbox's ledger, and
 * every result in the application's own table.
 */
class UserApplicationIT {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Fixtures f;
    private static ServiceProcess app;
    private static ServiceProcess relay;
    private static String appUrl;
    private static JdbcTemplate appDb;
    // in the token file before the application starts, so that each counts from the first request
    private static final String operator = TestTokens.create("booking-operator", Role.OPERATOR, "acme");
    private static final String viewer = TestTokens.create("booking-viewer", Role.VIEWER, "acme");
    private static final String otherTenant = TestTokens.create("globex-operator", Role.OPERATOR, "globex");
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void buildAndStart() {
        f = new Fixtures(SystemStack.get());
        String version = System.getProperty("toolonce.version");
        assertThat(version).as("system property toolonce.version (set by system-tests' failsafe)").isNotBlank();
        Path work = Path.of(System.getProperty("user.dir"), "target", "booking-agent").toAbsolutePath();
        UserApplication user = new UserApplication(ROOT, version);
        user.installStarter(work.resolveSibling("booking-agent-install"));
        Path jar = user.build("booking-agent", work);

        String db = f.stack.infra.freshDatabase("booking");
        appDb = new JdbcTemplate(new DriverManagerDataSource(db, "postgres", ""));
        int port = ServiceProcess.freePort();
        appUrl = "http://127.0.0.1:" + port;
        // The application's own configuration, but for where the stack is: its database and Kafka come from the
        // environment variables its application.yml reads, as they would on the local stack (./toolonce env).
        app = ServiceProcess.startJar("booking-agent", jar, Map.of("PG_URL", db,
                        "KAFKA_BOOTSTRAP", f.stack.infra.kafkaBootstrap()), List.of("--server.port=" + port))
                .awaitHttpOk(appUrl + "/actuator/health", WAIT);
        relay = startRelayOf(db);
    }

    /** A relay of the application's agent outbox (its migrations created the publication), with a slot of its own. */
    private static ServiceProcess startRelayOf(String db) {
        int port = ServiceProcess.freePort();
        String slot = "booking_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        return ServiceProcess.start("outbox-relay-booking", "dev.toolonce.relay.RelayApplication",
                SystemStack.notAnAgent(Map.of("TOOLONCE_PG_URL", db, "KAFKA_BOOTSTRAP", f.stack.infra.kafkaBootstrap())),
                List.of("--server.port=" + port, "--toolonce.relay.sources[0].name=agent",
                        "--toolonce.relay.sources[0].jdbc-url=" + db, "--toolonce.relay.sources[0].slot=" + slot,
                        "--toolonce.relay.sources[0].publication=toolonce_agent_outbox",
                        "--toolonce.relay.sources[0].table=agent.outbox_event"))
                .awaitHttpOk("http://127.0.0.1:" + port + "/ready", WAIT);
    }

    @AfterAll
    static void stop() {
        for (ServiceProcess p : new ServiceProcess[] {relay, app}) {
            if (p != null) {
                p.stop();
            }
        }
        if (relay != null) { // the slot outlives the relay: drop it, or the cluster keeps its WAL
            appDb.queryForList("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots "
                    + "WHERE NOT active AND slot_name LIKE 'booking\\_%'");
        }
        if (f != null) {
            f.close();
        }
    }

    @Test
    void theApplicationsOwnFlywayAndTheStartersMigrationsLiveSideBySide() {
        assertThat(appDb.queryForList("SELECT script FROM public.flyway_schema_history WHERE success", String.class))
                .as("the application's own history holds its own migration and nothing of the starter")
                .containsExactly("V1__booking_audit.sql");
        assertThat(appDb.queryForList("SELECT script FROM agent.flyway_schema_history WHERE success AND version IS NOT NULL "
                + "ORDER BY installed_rank", String.class)).as("the agent schema's own history")
                .startsWith("V1__agent_steps_inbox_outbox.sql", "V2__step_result_log_dead_letters.sql")
                .containsExactlyElementsOf(dev.toolonce.testsupport.AgentMigrationScripts.all());
    }

    @Test
    void aBookingSagaWaitsForItsApprovalAndThenTakesEachEffectOnce() throws Exception {
        String id = UUID.randomUUID().toString().substring(0, 8);
        String task = "booking-" + id;
        JsonNode submitted = post("/bookings/" + id + "?amount=1000&email=" + id + "@example.com", "");
        assertThat(submitted.path("taskId").asString()).isEqualTo(task);

        await().atMost(WAIT).until(() -> "AWAITING_APPROVAL".equals(stepState(task, "charge")));
        assertThat(stepState(task, "reserve")).isEqualTo("COMMITTED");
        assertThat(f.effectOfScope(scope("payments", "charge", task, "charge"))).as("no charge before approval").isNull();

        assertThat(status("GET", "/tasks/" + task, null, null)).as("no credential").isEqualTo(401);
        assertThat(status("POST", "/tasks/" + task + "/steps/charge/approve", "{}", viewer))
                .as("a viewer approves nothing").isEqualTo(403);
        assertThat(status("GET", "/tasks/" + task, null, otherTenant)).as("another tenant's task does not exist")
                .isEqualTo(404);
        String key = step(task, "charge").path("idempotencyKey").asString();
        post("/tasks/" + task + "/steps/charge/approve", "{\"idempotencyKey\":\"" + key + "\"}");
        assertThat(step(task, "charge").path("approvedBy").asString()).as("the authenticated principal")
                .isEqualTo("booking-operator");
        await().atMost(WAIT).until(() -> "SUCCEEDED".equals(get("/tasks/" + task).path("state").asString()));

        for (List<String> s : List.of(List.of("tickets", "create", "reserve"), List.of("payments", "charge", "charge"),
                List.of("email", "send", "confirm"))) {
            JsonNode effect = f.effectOfScope(scope(s.get(0), s.get(1), task, s.get(2)));
            assertThat(effect).as("effect of " + s.get(2)).isNotNull();
            assertThat(effect.path("count").asInt()).as("effects of " + s.get(2)).isEqualTo(1);
        }
        assertThat(appDb.queryForList("SELECT step_id FROM public.booking_audit WHERE task_id = ? AND status = 'COMMITTED'",
                String.class, task)).as("the application's ResultHandler, in its own table")
                .contains("reserve", "charge.dry-run", "charge", "confirm");
    }

    private static String scope(String tool, String operation, String task, String step) {
        return "acme/" + tool + "/" + operation + "/acme:" + task + ":" + step + ":1";
    }

    private String stepState(String task, String step) throws Exception {
        return step(task, step).path("state").asString(null);
    }

    private JsonNode step(String task, String step) throws Exception {
        for (JsonNode s : get("/tasks/" + task).path("steps")) {
            if (step.equals(s.path("stepId").asString())) {
                return s;
            }
        }
        return JSON.missingNode();
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(appUrl + path))
                .header("Authorization", "Bearer " + operator).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET " + path + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private JsonNode post(String path, String json) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(appUrl + path))
                .header("Authorization", "Bearer " + operator).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("POST " + path + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private int status(String method, String path, String json, String bearer) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(appUrl + path)).header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
