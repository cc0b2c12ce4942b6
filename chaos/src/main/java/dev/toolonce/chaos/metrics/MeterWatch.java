package dev.toolonce.chaos.metrics;

import dev.toolonce.schemas.PrometheusText;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Scrapes the services' {@code /actuator/prometheus} before and after each round, so that the report shows, per
 * fault, which of ToolOnce's production meters the fault moved (what an operator would have seen on a
 * dashboard while it happened).
 *
 * <p>Only monotonic series are compared: ToolOnce's counters ({@code toolonce_*_total}) and the counts of its
 * timers ({@code toolonce_*_count}). A series lower after the round than before belongs to a process that was
 * restarted meanwhile; its value after the round is what the new process counted. What a killed process counted
 * after the first scrape and before its death is lost with it, so the figures are lower bounds. A service that
 * does not answer (down, or without the endpoint, like the unsafe baseline's executor) counts as having nothing.
 */
public final class MeterWatch {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final Map<String, String> endpoints;

    private final String authorization;

    /**
     * @param endpoints     service name → its {@code /actuator/prometheus} URL
     * @param authorization the {@code Authorization} header of a scrape (or admin) token
     */
    public MeterWatch(Map<String, String> endpoints, String authorization) {
        this.endpoints = Map.copyOf(endpoints);
        this.authorization = authorization;
    }

    /** Service → its monotonic ToolOnce series now; services that did not answer are absent. */
    public Map<String, Map<String, Double>> snapshot() {
        Map<String, Map<String, Double>> all = new HashMap<>();
        endpoints.forEach((service, url) -> {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url))
                        .header("Authorization", authorization)
                        .timeout(Duration.ofSeconds(3)).GET().build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    Map<String, Double> mine = new HashMap<>();
                    for (PrometheusText.Sample s : PrometheusText.parse(r.body())) {
                        if (monotonic(s.name())) {
                            mine.put(s.series(), s.value());
                        }
                    }
                    all.put(service, mine);
                }
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                // down, restarting, or an answer that is not an exposition: nothing from it this time
            }
        });
        return all;
    }

    /** Series → how much it grew between the snapshots, summed over services; only series that moved. */
    public static Map<String, Double> moved(Map<String, Map<String, Double>> before,
                                            Map<String, Map<String, Double>> after) {
        Map<String, Double> moved = new TreeMap<>();
        after.forEach((service, now) -> {
            Map<String, Double> then = before.getOrDefault(service, Map.of());
            now.forEach((series, value) -> {
                double was = then.getOrDefault(series, 0.0);
                double grew = value >= was ? value - was : value; // lower than before: the process restarted
                if (grew > 0) {
                    moved.merge(series, grew, Double::sum);
                }
            });
        });
        return moved;
    }

    /** Adds {@code more} into {@code total}. */
    public static void add(Map<String, Double> total, Map<String, Double> more) {
        more.forEach((series, value) -> total.merge(series, value, Double::sum));
    }

    /** @param name a metric name ({@code toolonce_intake_total}) */
    static boolean monotonic(String name) {
        return name.startsWith("toolonce_") && (name.endsWith("_total") || name.endsWith("_count"));
    }
}
