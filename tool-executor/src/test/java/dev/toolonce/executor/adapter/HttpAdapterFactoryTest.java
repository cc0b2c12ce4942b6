package dev.toolonce.executor.adapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.core.adapter.Capability;
import dev.toolonce.executor.config.ExecutorProperties;
import dev.toolonce.executor.config.ToolProperties;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.io.ClassPathResource;
import tools.jackson.databind.ObjectMapper;

/** Start-up refusals of the generic adapter's configuration, each naming the tool and the field. */
class HttpAdapterFactoryTest {
    private static final String NONE = "<none>";

    private static Map<String, String> tickets() {
        Map<String, String> p = new HashMap<>();
        p.put("base-url", "http://127.0.0.1:1");
        p.put("capabilities", "UNIQUE_REFERENCE,LOOKUP_BY_REFERENCE");
        p.put("operations.create.path", "/tickets");
        p.put("operations.create.reference-field", "external_reference");
        p.put("operations.create.lookup.path", "/tickets?external_reference={providerKey}");
        p.put("operations.create.lookup.found-status", "200");
        p.put("operations.create.lookup.absent-status", "404");
        return p;
    }

    private static HttpToolAdapter build(Map<String, String> extra) {
        Map<String, String> p = tickets();
        p.putAll(extra);
        p.values().removeIf(NONE::equals);
        return new HttpAdapterFactory(Duration.ofSeconds(60), env -> null, new ObjectMapper())
                .build("tickets", Calls.tool("tickets", p));
    }

    private static void refused(Map<String, String> extra, String message) {
        assertThatThrownBy(() -> build(extra)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tool 'tickets'").hasMessageContaining(message);
    }

    @Test
    void aConsistentConfigurationBuilds() {
        HttpToolAdapter a = build(Map.of());
        assertThat(a.descriptor().capabilities()).containsExactlyInAnyOrder(Capability.UNIQUE_REFERENCE,
                Capability.LOOKUP_BY_REFERENCE);
        assertThat(a.descriptor().retrySafe()).isTrue();
        assertThat(a.descriptor().totalTimeout()).isEqualTo(Duration.ofSeconds(12));
    }

    @Test
    void badUrlTemplatesAreRefused() {
        refused(Map.of("operations.create.path", "/tickets/{ticket}"),
                "toolonce.executor.tools.tickets.operations.create.path has an unknown placeholder {ticket}");
        refused(Map.of("operations.create.path", "tickets"), "operations.create.path must be a path starting with '/'");
        refused(Map.of("operations.create.path", "/tickets/{arg./a"), "operations.create.path has an unclosed '{'");
        refused(Map.of("operations.create.path", "/tickets with space"), "operations.create.path");
        refused(Map.of("operations.create.lookup.path", "/tickets?ref={externalId}"), "operations.create.lookup.path");
        refused(Map.of("operations.create.lookup.path", "/tickets"), "operations.create.lookup.path must ask by {providerKey}");
        refused(Map.of("base-url", "ftp://x"), "base-url must be an http(s) URL");
        refused(Map.of("operations.create.reference-field", NONE, "operations.create.body", "{\"title\": 1"),
                "operations.create.body is not valid JSON");
    }

    @Test
    void aLookupMissingWhereTheCapabilitiesPromiseOneIsRefused() {
        refused(Map.of("operations.create.lookup.path", NONE, "operations.create.lookup.found-status", NONE,
                "operations.create.lookup.absent-status", NONE),
                "operations.create.lookup is required: the tool declares LOOKUP_BY_REFERENCE");
        refused(Map.of("operations.create.lookup.absent-status", NONE),
                "operations.create.lookup.absent-status is required: without it a lookup cannot tell found from absent");
        refused(Map.of("operations.create.lookup.found-status", NONE), "operations.create.lookup.found-status is required");
        refused(Map.of("capabilities", "UNIQUE_REFERENCE"),
                "capabilities must declare LOOKUP_BY_KEY or LOOKUP_BY_REFERENCE for the lookup configured at operations.create.lookup");
    }

    @Test
    void capabilitiesMustBeKnownAndBackedByConfiguration() {
        refused(Map.of("capabilities", "UNIQUE_REFERENCE,LOOKUP_BY_REFERENCE,EXACTLY_ONCE_MAGIC"),
                "capabilities has an unknown capability 'EXACTLY_ONCE_MAGIC', expected one of");
        refused(Map.of("operations.create.reference-field", NONE),
                "operations.create.body must send {providerKey} as the unique reference (UNIQUE_REFERENCE)");
        refused(Map.of("capabilities", "NATIVE_IDEMPOTENCY,LOOKUP_BY_KEY", "idempotency-window", "24h"),
                "idempotency-header is required with NATIVE_IDEMPOTENCY");
        refused(Map.of("capabilities", "NATIVE_IDEMPOTENCY,LOOKUP_BY_KEY", "idempotency-header", "Idempotency-Key"),
                "idempotency-window is required with NATIVE_IDEMPOTENCY");
        refused(Map.of("capabilities", "UNIQUE_REFERENCE,LOOKUP_BY_REFERENCE,COMPENSATION"),
                "operations.<op>.compensation is required with COMPENSATION");
        refused(Map.of("operations.create.compensation.path", "/tickets/{externalId}/cancel"),
                "capabilities must declare COMPENSATION");
    }

    @Test
    void aDeclaredDryRunAddsItsOperationAndAnOperationNamedLikeADryRunIsRefused() {
        HttpToolAdapter a = build(Map.of("operations.create.dry-run.path", "/tickets/validate"));
        assertThat(a.descriptor().operations()).containsExactlyInAnyOrder("create", "create.dry-run");
        assertThat(build(Map.of()).descriptor().operations()).containsExactly("create");
        refused(Map.of("operations.create.dry-run.path", "tickets/validate"),
                "operations.create.dry-run.path must be a path starting with '/'");
        refused(Map.of("operations.create.dry-run.path", "/v", "operations.create.dry-run.method", "post"),
                "operations.create.dry-run.method must be an HTTP method in capitals");
        // a dry run has no effect to duplicate: sending it again after an unknown outcome is safe for any tool
        HttpToolAdapter counter = new HttpAdapterFactory(Duration.ofSeconds(60), env -> null, new ObjectMapper())
                .build("counter", Calls.tool("counter", Map.of("base-url", "http://127.0.0.1:1",
                        "operations.apply.path", "/counter/apply", "operations.apply.dry-run.path", "/counter/check")));
        AdapterRegistry registry = new AdapterRegistry(Map.of("counter", counter));
        assertThat(registry.retrySafe("counter", "apply")).isFalse();
        assertThat(registry.retrySafe("counter", "apply.dry-run")).isTrue();
        assertThat(registry.retrySafe("counter", "other.dry-run")).as("not declared").isFalse();
        assertThatThrownBy(() -> new HttpAdapterFactory(Duration.ofSeconds(60), env -> null, new ObjectMapper())
                .build("counter", Calls.tool("counter", Map.of("base-url", "http://127.0.0.1:1",
                        "operations[apply.dry-run].path", "/counter/apply"))))
                .hasMessageContaining("tool 'counter'").hasMessageContaining("operations.apply.dry-run ends in '.dry-run'");
    }

    @Test
    void statusOverridesAndCredentialsAreChecked() {
        refused(Map.of("statuses.409", "maybe"), "statuses.409 has an unknown outcome 'maybe', expected one of");
        refused(Map.of("credentials.header", "Authorization", "credentials.env", "TICKETS_TOKEN"),
                "credentials.env names environment variable TICKETS_TOKEN, which is not set");
        refused(Map.of("credentials.env", "TICKETS_TOKEN"), "credentials.header is required");
    }

    private static final String SHARED = "shared-secret-1";
    private static final Map<String, String> ENVIRONMENT = Map.of("TICKETS_TOKEN", SHARED,
            "TICKETS_ACME_TOKEN", "acme-secret-2", "TICKETS_COPY_TOKEN", SHARED);

    private static HttpToolAdapter withCredentials(Map<String, String> extra) {
        Map<String, String> p = tickets();
        p.put("credentials.header", "Authorization");
        p.put("credentials.env", "TICKETS_TOKEN");
        p.put("credentials.prefix", "Bearer ");
        p.putAll(extra);
        p.values().removeIf(NONE::equals);
        return new HttpAdapterFactory(Duration.ofSeconds(60), ENVIRONMENT::get, new ObjectMapper())
                .build("tickets", Calls.tool("tickets", p));
    }

    private static void credentialsRefused(Map<String, String> extra, String message) {
        assertThatThrownBy(() -> withCredentials(extra)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tool 'tickets': toolonce.executor.tools.tickets.credentials")
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).as("never a secret").doesNotContain(SHARED, "acme-secret-2"));
    }

    @Test
    void aTenantsOwnCredentialBindsFromTheYamlAndIsCheckedLikeTheSharedOne() {
        assertThat(withCredentials(Map.of("credentials.tenants.acme.env", "TICKETS_ACME_TOKEN")).toString())
                .contains("Authorization: ****, tenant acme Authorization: ****").doesNotContain("acme-secret-2");
        credentialsRefused(Map.of("credentials.tenants.acme.env", "TICKETS_GLOBEX_TOKEN"),
                ".tenants.acme.env names environment variable TICKETS_GLOBEX_TOKEN, which is not set");
        credentialsRefused(Map.of("credentials.tenants.acme.header", "X-Key"),
                ".tenants.acme.env must name the environment variable of the secret");
        credentialsRefused(Map.of("credentials.tenants.acme.env", "TICKETS-ACME"),
                ".tenants.acme.env must be an environment variable name ([A-Za-z_][A-Za-z0-9_]*), was 'TICKETS-ACME'");
        credentialsRefused(Map.of("credentials.tenants.acme.env", "TICKETS_ACME_TOKEN",
                "credentials.tenants.acme.header", "X Key"), ".tenants.acme.header must be an HTTP header name, was 'X Key'");
        credentialsRefused(Map.of("credentials.header", "Author:ization"), ".header must be an HTTP header name");
        credentialsRefused(Map.of("credentials.env", "1TOKEN"), ".env must be an environment variable name");
        credentialsRefused(Map.of("credentials.tenants." + "a".repeat(65) + ".env", "TICKETS_ACME_TOKEN"),
                ".tenants has a key that is not a tenant id (1-64 characters of [A-Za-z0-9._-]): 'aaaa");
        credentialsRefused(Map.of("credentials.tenants[acme/x].env", "TICKETS_ACME_TOKEN"),
                ".tenants has a key that is not a tenant id (1-64 characters of [A-Za-z0-9._-]): 'acme/x'");
        credentialsRefused(Map.of("credentials.tenants.acme.env", "TICKETS_COPY_TOKEN"),
                ".tenants.acme.env names a secret equal to the shared credential's (TICKETS_TOKEN)");
        credentialsRefused(Map.of("credentials.env", NONE, "credentials.tenants.acme.env", "TICKETS_ACME_TOKEN"),
                ".env must name the environment variable of the secret");
    }

    /** The tool as the executor binds it from YAML, with {@code tenantsYaml} under {@code credentials.tenants}. */
    private static ToolProperties fromYaml(String tenantsYaml) throws Exception {
        String yaml = "toolonce.executor.tools.tickets:\n  base-url: http://127.0.0.1:1\n  capabilities: UNIQUE_REFERENCE\n"
                + "  operations.create: { path: /tickets, reference-field: ref }\n"
                + "  credentials:\n    header: Authorization\n    env: TICKETS_TOKEN\n    tenants:\n" + tenantsYaml;
        var sources = new YamlPropertySourceLoader().load("yaml", new org.springframework.core.io.ByteArrayResource(
                yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        var mutable = new org.springframework.core.env.MutablePropertySources();
        sources.forEach(mutable::addLast);
        return new Binder(ConfigurationPropertySources.from(mutable)).bind("toolonce.executor", ExecutorProperties.class)
                .get().tools().get("tickets");
    }

    @Test
    void tenantIdsFromTheYamlKeepTheirDotsCaseAndUnderscoresAndNoFieldIsDropped() throws Exception {
        Map<String, String> env = Map.of("TICKETS_TOKEN", SHARED, "K1", "k-one", "K2", "k-two", "K3", "k-three");
        ToolProperties p = fromYaml("      Globex: { env: K1 }\n      acme_eu: { env: K2 }\n      acme.eu:\n"
                + "        env: K3\n        header: X-Key\n        prefix: ''\n");
        assertThat(p.credentials().tenants()).containsOnlyKeys("Globex.env", "acme_eu.env", "acme.eu.env",
                "acme.eu.header", "acme.eu.prefix");
        assertThat(new HttpAdapterFactory(Duration.ofSeconds(60), env::get, new ObjectMapper()).build("tickets", p)
                .toString()).contains("tenant Globex Authorization: ****", "tenant acme.eu X-Key: ****",
                "tenant acme_eu Authorization: ****").doesNotContain("k-one", "k-two", "k-three");

        ToolProperties typo = fromYaml("      acme: { evn: K1 }\n");
        assertThatThrownBy(() -> new HttpAdapterFactory(Duration.ofSeconds(60), env::get, new ObjectMapper())
                .build("tickets", typo)).hasMessageContaining("toolonce.executor.tools.tickets.credentials.tenants.acme.evn "
                + "is not a tenant's credential field");
    }

    @Test
    void timeoutsLongerThanTheLeaseAreRefused() {
        assertThatThrownBy(() -> build(Map.of("total-timeout", "50s"))).rootCause()
                .hasMessageContaining("tool 'tickets': total-timeout PT50S")
                .hasMessageContaining("is not below toolonce.executor.lease PT1M");
    }

    @Test
    void theDefaultConfigurationWiresTheSandboxToolsThroughTheGenericAdapter() throws Exception {
        var sources = new YamlPropertySourceLoader().load("executor", new ClassPathResource("toolonce-executor.yml"));
        var mutable = new org.springframework.core.env.MutablePropertySources();
        sources.forEach(mutable::addLast);
        ExecutorProperties p = new Binder(ConfigurationPropertySources.from(mutable),
                new PropertySourcesPlaceholdersResolver(mutable)).bind("toolonce.executor", ExecutorProperties.class).get();
        var adapters = new HttpAdapterFactory(p.lease(), env -> null, new ObjectMapper()).buildAll(p.tools());
        assertThat(adapters).containsOnlyKeys("payments", "tickets", "email", "counter", "noop");
        assertThat(adapters.get("payments").descriptor().capabilities()).containsExactlyInAnyOrder(
                Capability.NATIVE_IDEMPOTENCY, Capability.LOOKUP_BY_KEY, Capability.COMPENSATION);
        assertThat(adapters.get("tickets").descriptor().retrySafe()).isTrue();
        assertThat(adapters.get("email").descriptor().retrySafe()).isFalse();
        assertThat(adapters.get("counter").descriptor().capabilities()).isEmpty();
        assertThat(adapters.get("payments").descriptor().operations()).containsExactlyInAnyOrder("charge",
                "charge.dry-run");
    }

    @Test
    void theReadmesWorkedExampleBuilds() throws Exception {
        String readme = java.nio.file.Files.readString(java.nio.file.Path.of("..", "README.md"));
        String section = readme.substring(readme.indexOf("## Adding a tool in YAML"));
        String yaml = section.substring(section.indexOf("```yaml") + 7, section.indexOf("```", section.indexOf("```yaml") + 7));
        var sources = new YamlPropertySourceLoader().load("readme",
                new org.springframework.core.io.ByteArrayResource(yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        var mutable = new org.springframework.core.env.MutablePropertySources();
        sources.forEach(mutable::addLast);
        ExecutorProperties p = new Binder(ConfigurationPropertySources.from(mutable))
                .bind("toolonce.executor", ExecutorProperties.class).get();
        HttpToolAdapter payments = new HttpAdapterFactory(p.lease(), env -> "PAYMENTS_API_KEY".equals(env) ? "s3cret" : null,
                new ObjectMapper()).build("payments", p.tools().get("payments"));
        assertThat(payments.descriptor().capabilities()).containsExactlyInAnyOrder(Capability.NATIVE_IDEMPOTENCY,
                Capability.LOOKUP_BY_KEY, Capability.COMPENSATION);
        assertThat(payments.descriptor().idempotencyWindow()).isEqualTo(Duration.ofHours(24));
        assertThat(payments.descriptor().operations()).containsExactlyInAnyOrder("charge", "charge.dry-run");
        assertThat(payments.toString()).contains("Authorization: ****").doesNotContain("s3cret");
    }
}
