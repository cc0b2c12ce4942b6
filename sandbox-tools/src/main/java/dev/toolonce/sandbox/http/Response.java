package dev.toolonce.sandbox.http;

import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * What an endpoint answers.
 *
 * @param status      HTTP status; 0 for a dropped response
 * @param body        JSON body; null only for a dropped response
 * @param headers     extra response headers
 * @param afterLedger true when the tool's ledger transaction committed for this request; only
 *                    such responses are subject to the after-apply faults (drop, stall)
 */
public record Response(int status, JsonNode body, Map<String, String> headers, boolean afterLedger) {

    private static final Response DROPPED = new Response(0, null, Map.of(), true);

    /** A response that did not go through a tool's ledger (lookups, errors, admin). */
    public static Response json(int status, JsonNode body) {
        return new Response(status, body, Map.of(), false);
    }

    /** A response to a request the tool recorded in its ledger (the transaction committed). */
    public static Response afterLedger(int status, JsonNode body) {
        return new Response(status, body, Map.of(), true);
    }

    /** {@code {"error":error,"message":message}}; the message is left out when null. */
    public static Response error(int status, String error, String message) {
        var body = Json.object().put("error", error);
        if (message != null) {
            body.put("message", message);
        }
        return json(status, body);
    }

    /** The marker for "close the connection without sending anything". */
    public static Response dropped() {
        return DROPPED;
    }

    /** @return true for the {@link #dropped()} marker */
    public boolean isDropped() {
        return this == DROPPED;
    }

    /** @return a copy with one more header */
    public Response withHeader(String name, String value) {
        var copy = new java.util.HashMap<>(headers);
        copy.put(name, value);
        return new Response(status, body, Map.copyOf(copy), afterLedger);
    }
}
