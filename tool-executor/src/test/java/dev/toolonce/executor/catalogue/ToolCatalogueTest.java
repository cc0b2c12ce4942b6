package dev.toolonce.executor.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.core.adapter.ToolAdapter;
import dev.toolonce.executor.adapter.HttpAdapterFactory;
import dev.toolonce.executor.adapter.ToolConfigException;
import dev.toolonce.executor.catalogue.ToolCatalogue.Guarantee;
import dev.toolonce.executor.config.ExecutorProperties;
import dev.toolonce.schemas.EventCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.io.ClassPathResource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** The catalogue built from tool YAML: guarantees from capabilities, argument schemas, start-up refusals. */
class ToolCatalogueTest {
    private static final String SCHEMA = "{\"type\": \"object\", \"properties\": {\"title\": {\"type\": \"string\", "
            + "\"minLength\": 3}}, \"required\": [\"title\"]}";

    @Test
    void theShippedToolsAreCataloguedWithGuaranteesDerivedFromTheirCapabilities() throws Exception {
        var sources = new YamlPropertySourceLoader().load("executor", new ClassPathResource("toolonce-executor.yml"));
        var mutable = new org.springframework.core.env.MutablePropertySources();
        sources.forEach(mutable::addLast);
        ExecutorProperties p = new Binder(ConfigurationPropertySources.from(mutable),
                new PropertySourcesPlaceholdersResolver(mutable)).bind("toolonce.executor", ExecutorProperties.class).get();
        ToolCatalogue catalogue = catalogue(p);

        assertThat(catalogue.tools()).extracting(ToolCatalogue.Tool::name)
                .containsExactly("counter", "email", "noop", "payments", "tickets");
        ToolCatalogue.Operation charge = catalogue.operation("payments", "charge").orElseThrow();
        assertThat(charge.guarantee()).as("NATIVE_IDEMPOTENCY").isEqualTo(Guarantee.EXACTLY_ONE_EFFECT);
        assertThat(charge.description()).contains("minor units");
        assertThat(charge.inputSchema()).isNotNull();
        assertThat(charge.dryRun()).isTrue();
        assertThat(charge.compensable()).isTrue();
        assertThat(charge.destructive()).as("the default").isTrue();
        assertThat(catalogue.operation("tickets", "create").orElseThrow().guarantee()).as("UNIQUE_REFERENCE")
                .isEqualTo(Guarantee.EXACTLY_ONE_EFFECT);
        assertThat(catalogue.operation("tickets", "create").orElseThrow().destructive()).isFalse();
        assertThat(catalogue.operation("email", "send").orElseThrow().guarantee()).as("IRREVERSIBLE, no lookup")
                .isEqualTo(Guarantee.AT_MOST_ONE_EFFECT_OR_REVIEW);
        assertThat(catalogue.operation("email", "send").orElseThrow().approvalRequired()).isTrue();
        assertThat(charge.approvalRequired()).as("the default").isFalse();
        assertThat(catalogue.operation("counter", "apply").orElseThrow().guarantee())
                .isEqualTo(Guarantee.AT_MOST_ONE_EFFECT_OR_REVIEW);
        assertThat(catalogue.violations("payments", "charge", json("{\"amount\": 1250, \"currency\": \"EUR\"}")))
                .isEmpty();
        assertThat(catalogue.violations("payments", "charge", json("{\"amount\": \"12.50\"}")))
                .singleElement().asString().startsWith("/amount: ");
    }

    @Test
    void aDryRunIsHeldToItsOperationsSchemaAndACompensationOrAnUnknownOperationIsNot() {
        ToolCatalogue catalogue = catalogue(Map.of("operations.create.input-schema", SCHEMA,
                "operations.create.dry-run.path", "/tickets/validate"));

        assertThat(catalogue.violations("tickets", "create", json("{\"title\": \"ok!\"}"))).isEmpty();
        assertThat(catalogue.violations("tickets", "create", json("{\"title\": \"no\"}")))
                .singleElement().asString().startsWith("/title: ");
        assertThat(catalogue.violations("tickets", "create.dry-run", json("{}")))
                .singleElement().asString().contains("title");
        assertThat(catalogue.violations("tickets", "create.compensate", json("{}"))).isEmpty();
        assertThat(catalogue.violations("tickets", "other", json("{}"))).isEmpty();
        assertThat(catalogue.violations("nothing", "create", json("{}"))).isEmpty();
    }

    @Test
    void anOperationWithoutASchemaAcceptsAnyObject() {
        ToolCatalogue catalogue = catalogue(Map.of());

        assertThat(catalogue.operation("tickets", "create").orElseThrow().inputSchema()).isNull();
        assertThat(catalogue.violations("tickets", "create", json("{\"anything\": [1, {}]}"))).isEmpty();
    }

    @Test
    void aSchemaThatCannotBeUsedStopsTheStartUpNamingToolAndField() {
        assertThatThrownBy(() -> catalogue(Map.of("operations.create.input-schema", "{\"type\": \"array\"}")))
                .isInstanceOf(ToolConfigException.class)
                .hasMessageContaining("tool 'tickets'").hasMessageContaining("operations.create.input-schema");
        assertThatThrownBy(() -> catalogue(Map.of("operations.create.input-schema",
                "{\"type\": \"object\", \"$ref\": \"http://169.254.169.254/x\"}")))
                .isInstanceOf(ToolConfigException.class).hasMessageContaining("only local $ref");
        assertThatThrownBy(() -> catalogue(Map.of("operations.create.approval", "maybe")))
                .isInstanceOf(ToolConfigException.class).hasMessageContaining("operations.create.approval")
                .hasMessageContaining("none or required");
    }

    private static ToolCatalogue catalogue(Map<String, String> extra) {
        Map<String, String> full = new java.util.HashMap<>();
        full.put("toolonce.executor.tools.tickets.base-url", "http://127.0.0.1:1");
        full.put("toolonce.executor.tools.tickets.description", "Support tickets");
        full.put("toolonce.executor.tools.tickets.capabilities", "UNIQUE_REFERENCE,LOOKUP_BY_REFERENCE");
        full.put("toolonce.executor.tools.tickets.operations.create.path", "/tickets");
        full.put("toolonce.executor.tools.tickets.operations.create.reference-field", "external_reference");
        full.put("toolonce.executor.tools.tickets.operations.create.lookup.path",
                "/tickets?external_reference={providerKey}");
        full.put("toolonce.executor.tools.tickets.operations.create.lookup.found-status", "200");
        full.put("toolonce.executor.tools.tickets.operations.create.lookup.absent-status", "404");
        extra.forEach((k, v) -> full.put("toolonce.executor.tools.tickets." + k, v));
        return catalogue(new Binder(new MapConfigurationPropertySource(full))
                .bind("toolonce.executor", ExecutorProperties.class).get());
    }

    private static ToolCatalogue catalogue(ExecutorProperties p) {
        Map<String, ToolAdapter> adapters = new HttpAdapterFactory(Duration.ofSeconds(60), env -> null,
                new ObjectMapper()).buildAll(p.tools());
        return ToolCatalogue.of(p.tools(), tool -> Optional.ofNullable(adapters.get(tool)).map(ToolAdapter::descriptor));
    }

    private static JsonNode json(String text) {
        return new EventCodec().parse(text.getBytes(StandardCharsets.UTF_8));
    }
}
