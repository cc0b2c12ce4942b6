package dev.toolonce.chaos.faults;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sandbox's own endpoints: its fault knobs ({@code PUT /_faults/{tool}}, {@code GET /_faults} with the count of
 * every injected fault) and its ledger of effects ({@code GET /_ledger}), the experiment's ground truth.
 */
public final class Sandbox {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String baseUrl;

    public Sandbox(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** Replaces {@code tool}'s fault configuration with {@code json} ({@code {}} clears it). */
    public void faults(String tool, String json) {
        send(HttpRequest.newBuilder(URI.create(baseUrl + "/_faults/" + tool))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** How many faults of {@code kind} (e.g. {@code failNext}, {@code stall}) were injected into {@code tool}. */
    public long injected(String tool, String kind) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/_faults")).GET())
                .path("injected").path(tool).path(kind).asLong();
    }

    /** Every effect the sandbox applied: {@code {"effects":[{tool, operation, opId, count, …}]}}. */
    public JsonNode ledger() {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/_ledger")).GET());
    }

    /** The id of the object that the effect of {@code opId}'s {@code operation} created, or null if there is none. */
    public String externalObjectId(String opId, String operation) {
        for (JsonNode effect : ledger().path("effects")) {
            if (opId.equals(effect.path("opId").asString("")) && operation.equals(effect.path("operation").asString(""))) {
                return effect.path("externalObjectId").asString(null);
            }
        }
        return null;
    }

    /**
     * Refunds {@code chargeId} straight at the provider under {@code idempotencyKey}, behind ToolOnce's back (an
     * operator in the provider's dashboard).
     *
     * @return the sandbox's status: 201 refunded, 400 already refunded under another key, 404 no such charge
     */
    public int refundOutOfBand(String chargeId, String idempotencyKey) {
        String body = JSON.createObjectNode().put("charge", chargeId).toString();
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/payments/refunds"))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            throw new IllegalStateException("sandbox at " + baseUrl + " did not answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private JsonNode send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("sandbox answered " + r.statusCode() + ": " + r.body());
            }
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new IllegalStateException("sandbox at " + baseUrl + " did not answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
