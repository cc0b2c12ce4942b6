package dev.toolonce.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code --compare EARLIER.json}: this run's headline figures beside those of an earlier run's {@code --json}, with
 * their ratio. Both runs are read from their JSON form, so a report written by an older bench compares as far as it
 * has the figures (a figure either run lacks is shown as {@code -}, never guessed).
 */
public final class Comparison {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * One figure of both runs.
     *
     * @param higherIsBetter whether a larger value is an improvement (rates) or not (latencies, costs)
     */
    public record Row(String figure, Double earlier, Double now, boolean higherIsBetter) {
        /** now ÷ earlier, or null when either is missing or the earlier one is zero */
        public Double ratio() {
            return earlier == null || now == null || earlier == 0 ? null : now / earlier;
        }
    }

    private final String earlierId;
    private final List<Row> rows;

    private Comparison(String earlierId, List<Row> rows) {
        this.earlierId = earlierId;
        this.rows = rows;
    }

    /** @throws IOException when the earlier report cannot be read or is not JSON */
    public static Comparison of(BenchReport now, Path earlier) throws IOException {
        JsonNode before;
        try {
            before = JSON.readTree(Files.readString(earlier));
        } catch (RuntimeException e) {
            throw new IOException(earlier + " is not a bench report's JSON: " + e.getMessage(), e);
        }
        return of(JSON.valueToTree(now), before);
    }

    static Comparison of(JsonNode now, JsonNode earlier) {
        Map<String, Double[]> both = new LinkedHashMap<>();
        Map<String, Boolean> better = new LinkedHashMap<>();
        figures(earlier).forEach(f -> {
            both.computeIfAbsent(f.name, k -> new Double[2])[0] = f.value;
            better.put(f.name, f.higherIsBetter);
        });
        figures(now).forEach(f -> {
            both.computeIfAbsent(f.name, k -> new Double[2])[1] = f.value;
            better.put(f.name, f.higherIsBetter);
        });
        List<Row> rows = new ArrayList<>();
        both.forEach((name, v) -> rows.add(new Row(name, v[0], v[1], better.get(name))));
        return new Comparison(text(earlier.path("runId")), rows);
    }

    public List<Row> rows() {
        return rows;
    }

    /** The comparison as text lines, for the console. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add("compared with run " + earlierId + " (ratio = this run ÷ earlier; better: ↑ for rates, ↓ for times and costs)");
        lines.add(String.format(Locale.ROOT, "%-58s %12s %12s %8s", "figure", "earlier", "this run", "ratio"));
        for (String[] r : cells()) {
            lines.add(String.format(Locale.ROOT, "%-58s %12s %12s %8s", (Object[]) r));
        }
        return lines;
    }

    /** Figure, earlier, this run, ratio (with an arrow saying whether it is the better way): for text and HTML. */
    List<String[]> cells() {
        List<String[]> cells = new ArrayList<>();
        for (Row r : rows) {
            Double ratio = r.ratio();
            // no mark for a change that rounds away in the two decimals shown
            String mark = ratio == null || Math.abs(ratio - 1.0) < 0.005 ? "" : (ratio > 1) == r.higherIsBetter() ? " +" : " -";
            cells.add(new String[] {r.figure(), number(r.earlier()), number(r.now()),
                    ratio == null ? "-" : String.format(Locale.ROOT, "%.2f%s", ratio, mark)});
        }
        return cells;
    }

    String earlierId() {
        return earlierId;
    }

    private record Figure(String name, Double value, boolean higherIsBetter) {
    }

    private static List<Figure> figures(JsonNode r) {
        List<Figure> f = new ArrayList<>();
        JsonNode commit = r.path("commit");
        add(f, "commit probe (the ceiling), commits/s", commit.path("commitsPerSecond"), true);
        for (JsonNode run : r.path("relay").path("runs")) {
            String at = String.format(Locale.ROOT, "relay alone at %.0f events/s", run.path("offeredPerSecond").asDouble());
            add(f, at + ", commit→ack p50 ms", run.path("relayLatency").path("p50"), false);
            add(f, at + ", commit→ack p99 ms", run.path("relayLatency").path("p99"), false);
        }
        add(f, "relay backlog drained, events/s", r.path("relay").path("backlog").path("eventsPerSecond"), true);
        JsonNode burst = r.path("burst");
        add(f, "burst, calls/s", burst.path("callsPerSecond"), true);
        List<Figure> components = new ArrayList<>();
        for (JsonNode res : burst.path("resources")) {
            JsonNode perCall = res.path("cpuSecondsPer1000"); // CPU-seconds per 1,000 calls = CPU-ms per call
            if (perCall.isNumber()) {
                components.add(new Figure("burst, CPU-ms per call: " + text(res.path("component")), perCall.asDouble(),
                        false));
            }
        }
        Double burstCpu = cpuPerCall(burst.path("resources"));
        if (burstCpu != null) {
            f.add(new Figure("burst, CPU-ms per call, all components", burstCpu, false));
        }
        f.addAll(components);
        add(f, "burst, SQL statements per call", burst.path("statements").path("statementsPerCall"), false);
        add(f, "burst, commits per call", burst.path("statements").path("commitsPerCall"), false);
        add(f, "burst, relay commit→ack p99 ms meanwhile", burst.path("relayLatency").path("p99"), false);
        for (JsonNode step : r.path("loads").path("steps")) {
            String at = String.format(Locale.ROOT, "loads %.0f/s offered", step.path("offeredPerSecond").asDouble());
            add(f, at + ", achieved/s", step.path("achievedPerSecond"), true);
            add(f, at + ", p50 ms", step.path("latency").path("p50"), false);
            add(f, at + ", p99 ms", step.path("latency").path("p99"), false);
            Double cpu = cpuPerCall(step.path("resources"));
            if (cpu != null) {
                f.add(new Figure(at + ", CPU-ms per call, all components", cpu, false));
            }
            add(f, at + ", SQL statements per call", step.path("statements").path("statementsPerCall"), false);
            add(f, at + ", commits per call", step.path("statements").path("commitsPerCall"), false);
        }
        add(f, "loads, knee calls/s", r.path("loads").path("kneePerSecond"), true);
        JsonNode awaitable = r.path("awaitable");
        add(f, "awaitable calls/s", awaitable.path("callsPerSecond"), true);
        add(f, "awaitable p99 ms", awaitable.path("latency").path("p99"), false);
        return f;
    }

    /** CPU-ms per call over whole components, by {@link ResourceUse#total}; null unless every one was measured. */
    private static Double cpuPerCall(JsonNode resources) {
        return ResourceUse.total(resources, res -> res.path("part").asBoolean(false),
                res -> res.path("cpuSecondsPer1000").isNumber() ? res.path("cpuSecondsPer1000").asDouble() : null);
    }

    private static void add(List<Figure> f, String name, JsonNode value, boolean higherIsBetter) {
        if (value.isNumber()) {
            f.add(new Figure(name, value.asDouble(), higherIsBetter));
        }
    }

    private static String text(JsonNode n) {
        return n.isMissingNode() || n.isNull() ? "?" : n.asString();
    }

    private static String number(Double v) {
        if (v == null) {
            return "-";
        }
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.3f", v);
    }
}
