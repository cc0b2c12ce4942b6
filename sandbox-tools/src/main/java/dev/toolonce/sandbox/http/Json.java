package dev.toolonce.sandbox.http;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** JSON reading and writing for the sandbox (Jackson 3); the mapper is immutable and shared. */
public final class Json {

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private Json() {
    }

    /**
     * Parses a request body that must be a JSON object.
     *
     * @throws HttpProblem 400 when the body is empty, malformed or not an object
     */
    public static ObjectNode readObject(byte[] body) {
        if (body == null || body.length == 0) {
            throw HttpProblem.badRequest("body must be a JSON object, was empty");
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
        } catch (JacksonException e) {
            throw HttpProblem.badRequest("body must be a JSON object: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw HttpProblem.badRequest("body must be a JSON object");
        }
        return (ObjectNode) node;
    }

    /** @return a new empty object node */
    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** @return the compact JSON text of {@code node} */
    public static String text(JsonNode node) {
        return MAPPER.writeValueAsString(node);
    }

    /** @return the parsed tree of trusted JSON text (stored by the sandbox itself) */
    public static JsonNode parse(String json) {
        return MAPPER.readTree(json);
    }

    static byte[] bytes(JsonNode node) {
        return MAPPER.writeValueAsBytes(node);
    }
}
