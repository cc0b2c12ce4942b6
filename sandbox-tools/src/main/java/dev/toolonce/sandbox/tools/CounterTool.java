package dev.toolonce.sandbox.tools;

import dev.toolonce.sandbox.http.Json;
import dev.toolonce.sandbox.http.Request;
import dev.toolonce.sandbox.http.Response;

/**
 * The {@code counter} tool: applies every request it receives, with no deduplication at all.
 * Protocol tests that must prove the executor itself never sends twice judge by its ledger.
 */
public class CounterTool {

    /** Tool name in the ledger and in {@code /_faults}. */
    public static final String NAME = "counter";

    private final UnguardedEffect effect;

    public CounterTool(UnguardedEffect effect) {
        this.effect = effect;
    }

    /** {@code POST /counter/apply}: any JSON object; 200 applied, 400 when not an object. */
    public Response apply(Request request) {
        return effect.apply(NAME, "apply", "ct_", request, Json.readObject(request.body()), 200,
                id -> Json.object().put("id", id).put("applied", true));
    }
}
