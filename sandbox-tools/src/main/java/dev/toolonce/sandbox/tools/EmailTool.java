package dev.toolonce.sandbox.tools;

import dev.toolonce.sandbox.http.Json;
import dev.toolonce.sandbox.http.Request;
import dev.toolonce.sandbox.http.Response;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code email} tool: neither idempotency nor a reference, so every request sends. An
 * unknown outcome of a send can only go to human review.
 */
public class EmailTool {

    /** Tool name in the ledger and in {@code /_faults}. */
    public static final String NAME = "email";

    private final UnguardedEffect effect;

    public EmailTool(UnguardedEffect effect) {
        this.effect = effect;
    }

    /** {@code POST /emails}: 202 sent, 400 when {@code to} or {@code subject} is missing. */
    public Response send(Request request) {
        ObjectNode body = Json.readObject(request.body());
        Fields.requiredString(body, "to");
        Fields.requiredString(body, "subject");
        return effect.apply(NAME, "send", "em_", request, body, 202,
                id -> Json.object().put("id", id).put("status", "sent"));
    }
}
