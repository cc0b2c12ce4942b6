package dev.toolonce.schemas;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Validates events against the JSON Schema files of public contract v1 (draft 2020-12). Thread-safe.
 */
public final class ContractValidator {
    private final Schema intentSchema;
    private final Schema resultSchema;
    private final Schema taskSchema;

    /** Loads the schemas from the classpath ({@code /schemas/*.v1.json}). */
    public ContractValidator() {
        // The contract's own patterns are checked by hand-written matchers, others by the JDK (ContractPatterns).
        SchemaRegistryConfig config = SchemaRegistryConfig.builder()
                .regularExpressionFactory(ContractPatterns.factory()).build();
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                b -> b.schemaRegistryConfig(config));
        ObjectMapper mapper = new ObjectMapper();
        this.intentSchema = registry.getSchema(load(mapper, "/schemas/tool-intent.v1.json"));
        this.resultSchema = registry.getSchema(load(mapper, "/schemas/tool-result.v1.json"));
        this.taskSchema = registry.getSchema(load(mapper, "/schemas/agent-task.v1.json"));
    }

    /** Violations of the intent schema, each naming the field; empty when valid. Never null. */
    public List<String> validateIntent(JsonNode intent) {
        return validate(intentSchema, intent);
    }

    /** Violations of the result schema, each naming the field; empty when valid. Never null. */
    public List<String> validateResult(JsonNode result) {
        return validate(resultSchema, result);
    }

    /** Violations of the agent task event schema (docs/agent-tasks.md §8), each naming the field; empty when valid. */
    public List<String> validateTaskEvent(JsonNode taskEvent) {
        return validate(taskSchema, taskEvent);
    }

    /** The validator library itself throws on some values (e.g. 1E30 against an integer minimum): a violation too. */
    private static List<String> validate(Schema schema, JsonNode node) {
        try {
            return describe(schema.validate(node));
        } catch (RuntimeException e) {
            return List.of("/: cannot be validated: " + e.getMessage());
        }
    }

    private static List<String> describe(List<Error> errors) {
        return errors.stream().map(e -> e.getInstanceLocation() + ": " + e.getMessage()).toList();
    }

    private static JsonNode load(ObjectMapper mapper, String resource) {
        try (InputStream in = ContractValidator.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("schema missing from the classpath: " + resource);
            }
            return mapper.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
