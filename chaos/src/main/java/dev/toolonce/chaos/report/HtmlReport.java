package dev.toolonce.chaos.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A self-contained HTML page (inline SVG and CSS, nothing fetched): the verdict, the per-fault table, per-fault bars
 * of injections and outcomes, every recovery time as a dot per fault on a log scale, and, with a baseline's JSON,
 * duplicate side effects per fault of ToolOnce beside the naive executor's.
 */
public final class HtmlReport {
    private HtmlReport() {
    }

    /** @param baseline a {@code --unsafe-baseline --json} file's content, or null */
    public static void write(ChaosReport r, JsonNode baseline, Path file) throws IOException {
        StringBuilder h = new StringBuilder();
        h.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>ToolOnce chaos ").append(esc(r.runId()))
                .append("</title><style>body{font:14px sans-serif;margin:2em;max-width:1100px}"
                        + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
                        + "td:first-child,th:first-child{text-align:left}.bad{color:#b00;font-weight:bold}"
                        + ".ok{color:#070;font-weight:bold}</style></head><body>");
        h.append("<h1>ToolOnce fault experiment (").append(esc(r.mode())).append(")</h1>");
        h.append("<p>run ").append(esc(r.runId())).append(", ").append(r.perFault()).append(" rounds per fault, ")
                .append(r.seconds()).append(" s. Ground truth: the sandbox ledger counted by the workload's opIds.</p>");
        h.append(r.passed() ? "<p class=\"ok\">passed</p>" : "<p class=\"bad\">FAILED: "
                + esc(String.join("; ", r.problems())) + "</p>");
        h.append("<p>duplicate side effects <b>").append(r.duplicates()).append("</b>, lost <b>").append(r.lost())
                .append("</b>, stuck <b>").append(r.stuck()).append("</b>; rates: duplicate side effects ")
                .append(String.format("%.4f", r.duplicateSideEffectRate())).append(", reconciliation success ")
                .append(TableReport.pct(r.reconciliationSuccessRate())).append(", idempotency conflicts ")
                .append(String.format("%.4f", r.idempotencyConflictRate())).append(", manual recovery ")
                .append(String.format("%.4f", r.manualRecoveryRate())).append(", compensation success ")
                .append(TableReport.pct(r.compensationSuccessRate())).append("</p>");
        table(h, r);
        h.append("<h2>Injections and outcomes per fault</h2>");
        Map<String, String> series = new LinkedHashMap<>();
        series.put("injections", "#4477aa");
        series.put("unknown", "#ccbb44");
        series.put("reconciled", "#228833");
        series.put("review", "#aa3377");
        series.put("duplicates", "#ee6677");
        bars(h, r.faults(), series);
        h.append("<h2>Recovery time (injection → first result of an intent sent after it), log scale</h2>");
        dots(h, r.faults());
        if (baseline != null) {
            h.append("<h2>Duplicate side effects: ToolOnce beside the unsafe baseline</h2>");
            compare(h, r, baseline);
        }
        h.append("</body></html>\n");
        Files.writeString(file, h.toString());
    }

    private static void table(StringBuilder h, ChaosReport r) {
        h.append("<table><tr><th>fault</th><th>injections</th><th>calls</th><th>sagas</th><th>messages</th><th>absorbed</th>"
                + "<th>duplicates</th><th>lost</th><th>stuck</th><th>unknown</th><th>reconciled</th><th>review</th>"
                + "<th>p50</th><th>p95</th><th>p99</th></tr>");
        for (FaultSummary f : r.faults()) {
            h.append("<tr><td title=\"").append(esc(f.description())).append("\">").append(esc(f.fault()))
                    .append(f.unjudgedRounds() > 0 ? " <span class=\"bad\">(" + f.unjudgedRounds() + " unjudged)</span>" : "")
                    .append("</td>").append(cell(f.injections(), f.missedRounds() > 0)).append(cell(f.calls(), false))
                    .append(cell(f.sagas(), false)).append(cell(f.messages(), false)).append(cell(f.absorbed(), false))
                    .append(cell(f.duplicates(), f.duplicates() > 0)).append(cell(f.lost(), f.lost() > 0))
                    .append(cell(f.stuck(), f.stuck() > 0)).append(cell(f.unknown(), false))
                    .append(cell(f.reconciled(), false)).append(cell(f.review(), false))
                    .append("<td>").append(TableReport.ms(f.recoveryP50())).append("</td><td>")
                    .append(TableReport.ms(f.recoveryP95())).append("</td><td>")
                    .append(TableReport.ms(f.recoveryP99())).append("</td></tr>");
        }
        h.append("</table>");
    }

    private static String cell(long v, boolean bad) {
        return "<td" + (bad ? " class=\"bad\"" : "") + ">" + v + "</td>";
    }

    private static void bars(StringBuilder h, List<FaultSummary> faults, Map<String, String> series) {
        long max = 1;
        for (FaultSummary f : faults) {
            for (String s : series.keySet()) {
                max = Math.max(max, value(f, s));
            }
        }
        int rowH = 14 * series.size() + 12;
        int width = 900;
        h.append(svgOpen(width, rowH * faults.size() + 30));
        int y = 20;
        int x0 = 190;
        int k = 0;
        for (Map.Entry<String, String> s : series.entrySet()) {
            h.append(String.format("<rect x=\"%d\" y=\"2\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"11\" font-size=\"11\">%s</text>", x0 + k * 110, s.getValue(), x0 + k * 110 + 14, s.getKey()));
            k++;
        }
        for (FaultSummary f : faults) {
            h.append(String.format("<text x=\"0\" y=\"%d\" font-size=\"12\">%s</text>", y + rowH / 2, esc(f.fault())));
            int i = 0;
            for (Map.Entry<String, String> s : series.entrySet()) {
                long v = value(f, s.getKey());
                int w = (int) Math.round((width - x0 - 60) * (double) v / max);
                h.append(String.format("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"12\" fill=\"%s\"/>"
                        + "<text x=\"%d\" y=\"%d\" font-size=\"10\">%d</text>", x0, y + i * 14, w, s.getValue(),
                        x0 + w + 4, y + i * 14 + 10, v));
                i++;
            }
            y += rowH;
        }
        h.append("</svg>");
    }

    private static long value(FaultSummary f, String series) {
        return switch (series) {
            case "injections" -> f.injections();
            case "unknown" -> f.unknown();
            case "reconciled" -> f.reconciled();
            case "review" -> f.review();
            default -> f.duplicates();
        };
    }

    private static void dots(StringBuilder h, List<FaultSummary> faults) {
        int width = 900;
        int x0 = 190;
        double lo = Math.log10(10);
        double hi = Math.log10(300_000);
        h.append(svgOpen(width, 22 * faults.size() + 40));
        for (long tick : new long[] {10, 100, 1_000, 10_000, 100_000}) {
            int x = x0 + (int) ((Math.log10(tick) - lo) / (hi - lo) * (width - x0 - 20));
            h.append(String.format("<line x1=\"%d\" y1=\"0\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%d\" font-size=\"10\">%s</text>", x, x, 22 * faults.size() + 5, x - 10,
                    22 * faults.size() + 20, tick >= 1000 ? tick / 1000 + " s" : tick + " ms"));
        }
        int y = 14;
        for (FaultSummary f : faults) {
            h.append(String.format("<text x=\"0\" y=\"%d\" font-size=\"12\">%s</text>", y + 4, esc(f.fault())));
            for (long ms : f.recoveryMillis()) {
                double v = Math.log10(Math.max(10, Math.min(300_000, ms)));
                int x = x0 + (int) ((v - lo) / (hi - lo) * (width - x0 - 20));
                h.append(String.format("<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"#4477aa\" fill-opacity=\"0.5\">"
                        + "<title>%d ms</title></circle>", x, y, ms));
            }
            y += 22;
        }
        h.append("</svg>");
    }

    private static void compare(StringBuilder h, ChaosReport r, JsonNode baseline) {
        Map<String, long[]> rows = new LinkedHashMap<>();
        r.faults().forEach(f -> rows.computeIfAbsent(f.fault(), k -> new long[2])[0] = f.duplicates());
        for (JsonNode f : baseline.path("faults")) {
            rows.computeIfAbsent(f.path("fault").asString(), k -> new long[2])[1] = f.path("duplicates").asLong();
        }
        long max = Math.max(1, rows.values().stream().mapToLong(v -> Math.max(v[0], v[1])).max().orElse(1));
        int width = 900;
        int x0 = 190;
        h.append("<p>ToolOnce <span style=\"color:#4477aa\">■</span>, unsafe baseline "
                + "<span style=\"color:#ee6677\">■</span> (run ").append(esc(baseline.path("runId").asString()))
                .append(": ").append(baseline.path("duplicates").asLong()).append(" duplicate side effects in ")
                .append(baseline.path("calls").asLong()).append(" calls)</p>");
        h.append(svgOpen(width, 34 * rows.size() + 10));
        int y = 4;
        for (Map.Entry<String, long[]> row : rows.entrySet()) {
            h.append(String.format("<text x=\"0\" y=\"%d\" font-size=\"12\">%s</text>", y + 16, esc(row.getKey())));
            String[] colours = {"#4477aa", "#ee6677"};
            for (int i = 0; i < 2; i++) {
                long v = row.getValue()[i];
                int w = (int) Math.round((width - x0 - 60) * (double) v / max);
                h.append(String.format("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"12\" fill=\"%s\"/>"
                        + "<text x=\"%d\" y=\"%d\" font-size=\"10\">%d</text>", x0, y + i * 14, Math.max(w, 1),
                        colours[i], x0 + w + 4, y + i * 14 + 10, v));
            }
            y += 34;
        }
        h.append("</svg>");
    }

    private static String svgOpen(int width, int height) {
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + width + "\" height=\"" + height
                + "\" viewBox=\"0 0 " + width + " " + height + "\">";
    }

    private static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
