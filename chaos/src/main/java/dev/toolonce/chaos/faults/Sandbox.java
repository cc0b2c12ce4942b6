package dev.toolonce.chaos.faults;

import dev.toolonce.chaos.stack.Sleep;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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

    /**
     * The effects the sandbox applied whose opId starts with {@code opIdPrefix}: {@code {"effects":[{tool, operation,
     * opId, count, …}]}}. Read by prefix, so a round reads its own effects and not the whole run's (which grow to
     * megabytes over a long run).
     */
    public JsonNode ledger(String opIdPrefix) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/_ledger?opIdPrefix="
                + URLEncoder.encode(opIdPrefix, StandardCharsets.UTF_8))).GET());
    }

    /** The id of the object that the effect of {@code opId}'s {@code operation} created, or null if there is none. */
    public String externalObjectId(String opId, String operation) {
        for (JsonNode effect : ledger(opId).path("effects")) {
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

    /** Sends a read or an idempotent write, three times at most: one broken connection must not end a long run. */
    private JsonNode send(HttpRequest.Builder request) {
        HttpRequest built = request.timeout(Duration.ofSeconds(30)).build();
        IOException last = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            try {
                HttpResponse<String> r = http.send(built, HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    throw new IllegalStateException("sandbox answered " + r.statusCode() + ": " + r.body());
                }
                return JSON.readTree(r.body());
            } catch (IOException e) {
                last = e;
                Sleep.millis(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("sandbox at " + baseUrl + " did not answer 3 times", last);
    }
}
