package dev.toolonce.sandbox.ledger;

import tools.jackson.databind.JsonNode;

/**
 * What the ledger records about the caller of one request.
 *
 * @param scope the {@code X-ToolOnce-Scope} header, or null
 * @param fence the {@code X-ToolOnce-Fence} header, or null
 * @param opId  the body's top-level {@code opId} as text, or null
 */
public record RequestMarks(String scope, Long fence, String opId) {

    /** Marks of a request whose body may carry an {@code opId}; {@code body} may be null. */
    public static RequestMarks of(String scope, Long fence, JsonNode body) {
        return new RequestMarks(scope, fence, opIdOf(body));
    }

    /**
     * @return the top-level {@code opId} as text (a string as is, any other value as its JSON
     *         text), or null when absent, null or blank
     */
    public static String opIdOf(JsonNode body) {
        JsonNode node = body == null ? null : body.get("opId");
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        String text = node.isString() ? node.stringValue() : node.toString();
        return text.isBlank() ? null : text;
    }
}
