package dev.toolonce.demo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * The faults the demo injects at the sandbox: responses lost after the effect applied, 429s, 5xx and
 * stalls. Email and counter have no lookup, so a lost response there can only end in review.
 */
final class Faults {
    static final Map<String, String> PLAN = Map.of(
            "payments", "{\"dropResponseAfterApply\":0.06,\"rate429\":0.05,\"rate5xx\":0.04}",
            "tickets", "{\"dropResponseAfterApply\":0.06,\"rate429\":0.05,\"rate5xx\":0.04,\"stallMs\":20}",
            "email", "{\"dropResponseAfterApply\":0.03,\"rate429\":0.05}",
            "counter", "{\"rate429\":0.05,\"rate5xx\":0.03}");

    private final HttpClient http = HttpClient.newHttpClient();
    private final String sandboxUrl;

    Faults(String sandboxUrl) {
        this.sandboxUrl = sandboxUrl;
    }

    void inject() throws Exception {
        clear();
        for (Map.Entry<String, String> e : PLAN.entrySet()) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(sandboxUrl + "/_faults/" + e.getKey()))
                    .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(e.getValue()))
                    .build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("sandbox refused faults for " + e.getKey() + ": " + r.body());
            }
        }
    }

    void clear() throws Exception {
        http.send(HttpRequest.newBuilder(URI.create(sandboxUrl + "/_faults")).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
