package dev.toolonce.demo;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** Reads the ground truth: the sandbox's ledger of effects, and the relay's latency figures. */
final class SandboxLedger {
    /** One effect as the sandbox recorded it. */
    record Effect(String tool, String scope, String opId, String externalObjectId, long count, long requests) {
    }

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper mapper = new ObjectMapper();

    /** The effects of one run: the sandbox filters by opId prefix, so the read stays small however old its ledger. */
    List<Effect> effects(String sandboxUrl, String opIdPrefix) throws Exception {
        List<Effect> out = new ArrayList<>();
        String url = sandboxUrl + "/_ledger?opIdPrefix=" + URLEncoder.encode(opIdPrefix, StandardCharsets.UTF_8);
        for (JsonNode e : get(url).path("effects")) {
            out.add(new Effect(e.path("tool").asString(), e.path("scope").asString(null), e.path("opId").asString(),
                    e.path("externalObjectId").asString(null), e.path("count").asLong(), e.path("requests").asLong()));
        }
        return out;
    }

    JsonNode get(String url) throws Exception {
        return get(url, null);
    }

    /**
     * @param authorization the {@code Authorization} header for a ToolOnce service, or null (the sandbox, a stand-in
     *                      for third-party tools, is never sent ToolOnce's credential)
     */
    JsonNode get(String url, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).GET();
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET " + url + " answered " + r.statusCode() + ": " + r.body());
        }
        return mapper.readTree(r.body());
    }
}
