package dev.toolonce.sandbox.tools;

import dev.toolonce.sandbox.http.Json;
import dev.toolonce.sandbox.http.Request;
import dev.toolonce.sandbox.http.Response;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code noop} tool: a zero-cost endpoint for throughput measurements, so that a benchmark measures
 * ToolOnce and not the tool. It writes no ledger: it counts requests in memory, and requests per
 * {@code opId} of the body, so that a benchmark can still see a duplicate ({@code GET /noop/stats}).
 * Counts live as long as the process; the opIds seen are kept as fingerprints ({@link FingerprintSet}), a few bytes
 * each, so that millions of calls cost the process neither its heap nor its speed.
 */
public final class NoopTool {

    /** Tool name. */
    public static final String NAME = "noop";

    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final FingerprintSet seen = new FingerprintSet();

    /** {@code POST /noop/apply}: any JSON object, optionally with a text {@code opId}; always 200. */
    public Response apply(Request request) {
        long n = requests.incrementAndGet();
        ObjectNode body = Json.readObject(request.body());
        JsonNode opId = body.get("opId");
        if (opId != null && opId.isString() && !seen.add(opId.stringValue())) {
            duplicates.incrementAndGet();
        }
        return Response.json(200, Json.object().put("id", "nop_" + n).put("applied", true));
    }

    /** {@code GET /noop/stats}: requests, distinct opIds and requests that repeated an opId. */
    public Response stats(Request request) {
        return Response.json(200, Json.object().put("requests", requests.get()).put("distinctOpIds", seen.size())
                .put("duplicates", duplicates.get()));
    }
}
