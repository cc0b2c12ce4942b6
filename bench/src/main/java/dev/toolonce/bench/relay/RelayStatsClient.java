package dev.toolonce.bench.relay;

import dev.toolonce.bench.stats.LatencySummary;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The relay's own figures: {@code POST /relay/stats/reset} clears its commit→ack histogram,
 * {@code GET /relay/stats} reads it ({@code latencyMs.{p50,p95,p99,max,count}}, {@code published}).
 * The histogram covers every source of the relay, so a run is only clean while nothing else is relayed.
 */
public final class RelayStatsClient {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ObjectMapper json = JsonMapper.builder().build();
    private final String relayUrl;

    private final String authorization;

    /** @param authorization the {@code Authorization} header (the relay's statistics need a viewer, a reset an admin) */
    public RelayStatsClient(String relayUrl, String authorization) {
        this.relayUrl = relayUrl;
        this.authorization = authorization;
    }

    /** Clears the histogram. @return the {@code published} counter */
    public long reset() throws IOException, InterruptedException {
        return call(HttpRequest.newBuilder(URI.create(relayUrl + "/relay/stats/reset"))
                .POST(HttpRequest.BodyPublishers.noBody())).path("published").asLong();
    }

    /** @return the {@code published} counter */
    public long published() throws IOException, InterruptedException {
        return stats().path("published").asLong();
    }

    public LatencySummary latency() throws IOException, InterruptedException {
        JsonNode l = stats().path("latencyMs");
        return new LatencySummary(l.path("count").asLong(), l.path("p50").asDouble(), l.path("p95").asDouble(),
                l.path("p99").asDouble(), l.path("max").asDouble());
    }

    private JsonNode stats() throws IOException, InterruptedException {
        return call(HttpRequest.newBuilder(URI.create(relayUrl + "/relay/stats")).GET());
    }

    private JsonNode call(HttpRequest.Builder request) throws IOException, InterruptedException {
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        HttpResponse<String> r = http.send(request.timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException(r.request().method() + " " + r.request().uri() + " answered " + r.statusCode());
        }
        return json.readTree(r.body());
    }
}
