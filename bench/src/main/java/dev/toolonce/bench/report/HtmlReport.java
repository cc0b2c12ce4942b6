package dev.toolonce.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code --html FILE}: one self-contained page (inline CSS and SVG, no script, nothing fetched) with the
 * table's rows and three charts: latency against offered load, the CDF of the burst, and the CDFs of the
 * relay runs as the bench's consumer saw them.
 */
public final class HtmlReport {
    private HtmlReport() {
    }

    /** @param comparison the figures of an earlier run beside this one's ({@code --compare}); null for none */
    public static void write(BenchReport report, Comparison comparison, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, html(report, comparison));
    }

    static String html(BenchReport r) {
        return html(r, null);
    }

    static String html(BenchReport r, Comparison comparison) {
        TableReport table = new TableReport(r);
        StringBuilder h = new StringBuilder("<!DOCTYPE html><html><head><meta charset='utf-8'><title>ToolOnce bench ")
                .append(escape(r.runId())).append("</title><style>body{font-family:sans-serif;margin:2em;max-width:1100px}"
                        + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;"
                        + "text-align:right}td:nth-child(-n+2),th:nth-child(-n+2){text-align:left}"
                        + "svg{border:1px solid #eee;margin:0.5em 0}</style></head><body>");
        h.append("<h1>ToolOnce bench ").append(escape(r.runId())).append("</h1><p>")
                .append(escape(r.startedAt())).append(", ").append(r.cores()).append(" cores. ")
                .append(escape(r.settings())).append("</p>");
        h.append("<p>Rates are divided by the commit ceiling measured in the same run (÷ceiling). Lost: ")
                .append(r.lost()).append(".</p>");
        h.append(table(TableReport.HEADER, table.rows()));
        if (r.loads() != null) {
            h.append("<p>").append(escape(table.kneeLine())).append("</p>");
        }
        if (!table.resourceRows().isEmpty()) {
            h.append("<h2>Resources during the burst</h2>").append(table(TableReport.RESOURCE_HEADER, table.resourceRows()));
        }
        if (!table.statementLines().isEmpty()) {
            h.append("<h2>SQL during the burst</h2><pre>")
                    .append(escape(String.join("\n", table.statementLines()).strip())).append("</pre>");
        }
        if (comparison != null) {
            h.append("<h2>Beside run ").append(escape(comparison.earlierId()))
                    .append("</h2><p>ratio = this run ÷ earlier; + marks a figure that got better, - one that got worse"
                            + "</p>")
                    .append(table(new String[] {"figure", "earlier", "this run", "ratio"}, comparison.cells()));
        }
        h.append("<h2>Charts</h2>");
        charts(r).forEach(h::append);
        return h.append("</body></html>").toString();
    }

    private static List<String> charts(BenchReport r) {
        List<String> charts = new ArrayList<>();
        if (r.loads() != null) {
            List<double[]> p50 = new ArrayList<>();
            List<double[]> p99 = new ArrayList<>();
            r.loads().steps().stream().sorted(java.util.Comparator.comparingDouble(LoadStepResult::offeredPerSecond))
                    .forEach(s -> {
                        p50.add(new double[] {s.offeredPerSecond(), s.latency().p50()});
                        p99.add(new double[] {s.offeredPerSecond(), s.latency().p99()});
                    });
            charts.add(new SvgChart("Latency vs offered load (agent outbox, commit→step)", "offered calls/s", "ms", false)
                    .add("p50", p50).add("p99", p99).svg());
        }
        if (r.burst() != null) {
            charts.add(new SvgChart("Latency CDF of the burst (send→result)", "ms (log)", "fraction", true)
                    .add(r.burst().intents() + " intents", r.burst().cdf()).svg());
        }
        if (r.relay() != null) {
            SvgChart relay = new SvgChart("Latency CDF of the relay runs (commit→bench consumer)", "ms (log)", "fraction", true);
            r.relay().runs().forEach(run -> relay.add(String.format(Locale.ROOT, "%.0f/s", run.offeredPerSecond()),
                    run.consumerCdf()));
            charts.add(relay.svg());
        }
        return charts;
    }

    private static String table(String[] header, List<String[]> rows) {
        StringBuilder t = new StringBuilder("<table><tr>");
        for (String cell : header) {
            t.append("<th>").append(escape(cell)).append("</th>");
        }
        t.append("</tr>");
        for (String[] row : rows) {
            t.append("<tr>");
            for (String cell : row) {
                t.append("<td>").append(escape(cell)).append("</td>");
            }
            t.append("</tr>");
        }
        return t.append("</table>").toString();
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;").replace("\"", "&quot;");
    }
}
