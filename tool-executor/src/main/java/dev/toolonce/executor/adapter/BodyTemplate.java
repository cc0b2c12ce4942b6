package dev.toolonce.executor.adapter;

import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JSON body template: a JSON document whose strings may hold placeholders (see {@link Template}). A
 * string that is exactly one {@code {arg./pointer}} is replaced by that argument with its JSON type;
 * any other string with placeholders is rendered as text. Members keep the template's order, so two
 * renderings of one call are byte-identical.
 */
final class BodyTemplate {
    private final JsonNode root;
    private final Map<String, Template> strings;
    private final ObjectMapper mapper;

    private BodyTemplate(JsonNode root, Map<String, Template> strings, ObjectMapper mapper) {
        this.root = root;
        this.strings = strings;
        this.mapper = mapper;
    }

    /** @throws IllegalArgumentException when the text is not JSON or a placeholder is bad */
    static BodyTemplate parse(String json, boolean allowExternalId, ObjectMapper mapper) {
        JsonNode root;
        try {
            root = mapper.readTree(json);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("is not valid JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (root == null || !root.isContainer()) {
            throw new IllegalArgumentException("must be a JSON object or array");
        }
        Map<String, Template> strings = new java.util.HashMap<>();
        collect(root, allowExternalId, strings);
        return new BodyTemplate(root, Map.copyOf(strings), mapper);
    }

    private static void collect(JsonNode node, boolean allowExternalId, Map<String, Template> strings) {
        if (node.isString()) {
            strings.computeIfAbsent(node.stringValue(), s -> Template.parse(s, allowExternalId));
        }
        node.values().forEach(child -> collect(child, allowExternalId, strings));
        if (node.isObject()) {
            node.propertyNames().forEach(name -> {
                if (name.contains("{") || name.contains("}")) {
                    throw new IllegalArgumentException("member names cannot hold placeholders: " + name);
                }
            });
        }
    }

    /** Whether any string of the template uses {@code {name}}. */
    boolean uses(String name) {
        return strings.values().stream().anyMatch(t -> t.uses(name));
    }

    /** @throws Template.MissingArgumentException when an argument the template names is absent */
    String render(Template.Values values) {
        return mapper.writeValueAsString(fill(root, values));
    }

    private JsonNode fill(JsonNode node, Template.Values values) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (node.isObject()) {
            ObjectNode out = f.objectNode();
            node.properties().forEach(e -> out.set(e.getKey(), fill(e.getValue(), values)));
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = f.arrayNode();
            node.values().forEach(v -> out.add(fill(v, values)));
            return out;
        }
        if (node.isString()) {
            Template t = strings.get(node.stringValue());
            return t.isSingleArgument() ? t.argument(values).deepCopy() : f.stringNode(t.render(values));
        }
        return node;
    }
}
