package dev.toolonce.sandbox.faults;

import dev.toolonce.sandbox.http.HttpProblem;
import dev.toolonce.sandbox.http.Json;
import dev.toolonce.sandbox.http.Request;
import dev.toolonce.sandbox.http.Response;
import tools.jackson.databind.node.ObjectNode;

/** The {@code /_faults} endpoints: set a tool's faults, report them, clear them all. */
public final class FaultAdmin {

    private final FaultRegistry registry;

    public FaultAdmin(FaultRegistry registry) {
        this.registry = registry;
    }

    /** {@code PUT /_faults/{tool}}: replaces the tool's configuration; 404 for an unknown tool. */
    public Response configure(Request request) {
        String tool = request.pathParam("tool");
        ToolFaults faults = registry.tool(tool).orElseThrow(HttpProblem::notFound);
        FaultConfig config = FaultConfig.fromJson(Json.readObject(request.body()));
        faults.configure(config);
        ObjectNode body = Json.object().put("tool", tool);
        body.set("config", config.toJson(faults.failNextLeft(), faults.failStatusLeft()));
        return Response.json(200, body);
    }

    /** {@code GET /_faults}: every tool's configuration and injected-fault counts. */
    public Response report(Request request) {
        ObjectNode body = Json.object();
        ObjectNode config = body.putObject("config");
        ObjectNode injected = body.putObject("injected");
        registry.all().forEach((tool, faults) -> {
            config.set(tool, faults.config().toJson(faults.failNextLeft(), faults.failStatusLeft()));
            ObjectNode counts = injected.putObject(tool);
            for (FaultKind kind : FaultKind.values()) {
                counts.put(kind.jsonName(), faults.injected(kind));
            }
        });
        return Response.json(200, body);
    }

    /** {@code DELETE /_faults}: no faults anywhere and all counters at zero. */
    public Response clear(Request request) {
        registry.all().values().forEach(ToolFaults::clear);
        return Response.json(200, Json.object().put("status", "cleared"));
    }
}
