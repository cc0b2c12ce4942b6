package dev.toolonce.schemas;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The JSON Schema an operation declares for its arguments (the tool YAML's {@code input-schema}; docs/adapters.md
 * §8), draft 2020-12. It is the operator's own text, checked once at start-up: an object schema of {@code "type":
 * "object"}, with no {@code $ref} but local ones ({@code #…}), so that validating never reaches out of the process.
 * Thread-safe.
 */
public final class ArgumentsSchema {
    private final JsonNode tree;
    private final Schema schema;

    private ArgumentsSchema(JsonNode tree, Schema schema) {
        this.tree = tree;
        this.schema = schema;
    }

    /**
     * Parses and compiles a schema given as JSON text.
     *
     * @throws IllegalArgumentException naming what is wrong with it
     */
    public static ArgumentsSchema parse(String json) {
        JsonNode tree;
        try {
            tree = new EventCodec().parse(json.getBytes(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("is not JSON: " + e.getMessage(), e);
        }
        if (!tree.isObject() || !"object".equals(tree.path("type").asString(null))) {
            throw new IllegalArgumentException("must be a JSON Schema object with \"type\": \"object\" (arguments are "
                    + "always a JSON object)");
        }
        List<String> remote = new ArrayList<>();
        collectRemoteRefs(tree, "", remote);
        if (!remote.isEmpty()) {
            throw new IllegalArgumentException("may use only local $ref (\"#/…\"), found " + remote);
        }
        try {
            SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                    b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder()
                            .regularExpressionFactory(ContractPatterns.factory()).build()));
            Schema schema = registry.getSchema(tree);
            schema.initializeValidators();
            return new ArgumentsSchema(tree, schema);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("is not a usable JSON Schema: " + e.getMessage(), e);
        }
    }

    /** The schema as declared. */
    public JsonNode tree() {
        return tree;
    }

    /**
     * What is wrong with {@code arguments}, each naming the field as a JSON pointer ({@code /amount: …}); empty when
     * they are valid. Never throws: a value the validator cannot handle is a violation too.
     */
    public List<String> violations(JsonNode arguments) {
        try {
            return schema.validate(arguments).stream()
                    .map(e -> pointer(e.getInstanceLocation().toString()) + ": " + e.getMessage()).toList();
        } catch (RuntimeException e) {
            return List.of("/: cannot be validated: " + e.getMessage());
        }
    }

    /**
     * Violations as the one sentence every door answers them with (the executor's intake, the agent's framework
     * adapters, the MCP gateway): the first five, each naming its field, at most 1,000 characters.
     */
    public static String describe(String tool, String operation, List<String> violations) {
        String text = "arguments break the input-schema of " + tool + "/" + operation + ": "
                + String.join("; ", violations.subList(0, Math.min(5, violations.size())))
                + (violations.size() > 5 ? " (and " + (violations.size() - 5) + " more)" : "");
        return text.length() <= 1000 ? text : text.substring(0, 997) + "...";
    }

    /** {@code $.a.b[0]} or {@code /a/b/0} as a JSON pointer; the root is {@code /}. */
    private static String pointer(String location) {
        if (location.startsWith("/")) {
            return location;
        }
        if (location.equals("$") || location.isEmpty()) {
            return "/";
        }
        return location.startsWith("$") ? location.substring(1).replace('.', '/').replace("[", "/").replace("]", "")
                : location;
    }

    private static void collectRemoteRefs(JsonNode node, String at, List<String> found) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                if (("$ref".equals(e.getKey()) || "$dynamicRef".equals(e.getKey())) && e.getValue().isString()
                        && !e.getValue().asString().startsWith("#")) {
                    found.add(at + "/" + e.getKey() + " = " + e.getValue().asString());
                }
                collectRemoteRefs(e.getValue(), at + "/" + e.getKey(), found);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectRemoteRefs(node.get(i), at + "/" + i, found);
            }
        }
    }
}
