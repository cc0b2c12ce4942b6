package dev.toolonce.sandbox.ledger;

import dev.toolonce.sandbox.http.Json;
import dev.toolonce.sandbox.http.Request;
import dev.toolonce.sandbox.http.Response;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /_ledger[?tool=][&opIdPrefix=]}: the effects as {@code {"effects":[…]}}, all of them or those of one tool
 * and/or whose opId starts with a prefix (a fault experiment reads one round's effects, not the whole run's).
 */
public class LedgerView {

    private final EffectLedger ledger;

    public LedgerView(EffectLedger ledger) {
        this.ledger = ledger;
    }

    public Response list(Request request) {
        ObjectNode body = Json.object();
        var effects = body.putArray("effects");
        ledger.list(request.query().get("tool"), request.query().get("opIdPrefix"))
                .forEach(effect -> effects.add(toJson(effect)));
        return Response.json(200, body);
    }

    private static ObjectNode toJson(EffectRecord effect) {
        ObjectNode node = Json.object()
                .put("tool", effect.tool())
                .put("operation", effect.operation())
                .put("effectKey", effect.effectKey())
                .put("scope", effect.scope())
                .put("opId", effect.opId())
                .put("externalObjectId", effect.externalObjectId())
                .put("count", effect.count())
                .put("requests", effect.requests());
        var fences = node.putArray("fences");
        effect.fences().forEach(fences::add);
        node.put("firstAt", effect.firstAt().toInstant().toString());
        node.put("lastAt", effect.lastAt().toInstant().toString());
        return node;
    }
}
