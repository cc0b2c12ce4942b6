package dev.toolonce.agent.call;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * One operation of the executor's catalogue ({@code GET /executor/catalogue}, docs/adapters.md §8), as the agent side
 * offers it to a model.
 *
 * @param tool        the tool's name in the executor's YAML
 * @param operation   the operation's name
 * @param description what it does (the tool's and the operation's descriptions); never null
 * @param inputSchema the JSON Schema of its arguments; {@code {"type": "object"}} when it declares none
 * @param guarantee   {@code EXACTLY_ONE_EFFECT} or {@code AT_MOST_ONE_EFFECT_OR_REVIEW}
 * @param destructive whether the effect may destroy or overwrite something
 * @param approvalRequired whether a model's call waits for an operator's approval (docs/agent-calls.md §7)
 */
public record CatalogueTool(String tool, String operation, String description, JsonNode inputSchema, String guarantee,
                            boolean destructive, boolean approvalRequired) {
    private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9_-]");

    /** The name a model calls it by: {@code <tool>_<operation>}, with any other character than {@code [A-Za-z0-9_-]} as {@code -}. */
    public String functionName() {
        String name = UNSAFE.matcher(tool + "_" + operation).replaceAll("-");
        return name.length() <= 64 ? name : name.substring(0, 64);
    }

    /** Whether ToolOnce guarantees this operation exactly one effect (MCP's {@code idempotentHint}). */
    public boolean exactlyOnce() {
        return "EXACTLY_ONE_EFFECT".equals(guarantee);
    }

    /**
     * The operations of a catalogue document, in its order.
     *
     * @throws IllegalArgumentException when it is not a catalogue of version 1
     */
    public static List<CatalogueTool> parse(JsonNode catalogue) {
        if (catalogue == null || catalogue.path("catalogueVersion").asInt(0) != 1) {
            throw new IllegalArgumentException("not a ToolOnce catalogue of version 1");
        }
        List<CatalogueTool> out = new ArrayList<>();
        for (JsonNode t : catalogue.path("tools")) {
            String tool = t.path("name").asString();
            String toolDescription = t.path("description").asString("");
            for (JsonNode o : t.path("operations")) {
                String op = o.path("name").asString();
                String opDescription = o.path("description").asString("");
                String description = (toolDescription + " " + opDescription).trim();
                JsonNode schema = o.path("inputSchema");
                out.add(new CatalogueTool(tool, op, description.isEmpty() ? tool + " " + op : description,
                        schema.isObject() ? schema : JsonNodeFactory.instance.objectNode().put("type", "object"),
                        o.path("guarantee").asString("AT_MOST_ONE_EFFECT_OR_REVIEW"), o.path("destructive").asBoolean(true),
                        "required".equals(o.path("approval").asString("none"))));
            }
        }
        return out;
    }
}
