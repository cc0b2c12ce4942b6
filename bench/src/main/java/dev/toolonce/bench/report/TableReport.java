package dev.toolonce.bench.report;

import dev.toolonce.bench.stats.LatencySummary;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The figures as table rows: one row per figure, with its rate as a share of the commit ceiling measured in
 * the same run (blank when the probe did not run), then the resources of the burst. Printed on stdout at the
 * end of a run; {@link HtmlReport} renders the same rows.
 */
public final class TableReport {
    static final String[] HEADER = {"phase", "figure", "rate/s", "÷ceiling", "p50 ms", "p95 ms", "p99 ms", "max ms",
            "n", "lost"};
    static final String[] RESOURCE_HEADER = {"component", "processes", "cpu s", "cpu s/1000 calls", "peak RSS MiB",
            "VmHWM MiB"};
    private static final String ROW = "%-7s %-46s %9s %8s %8s %8s %8s %8s %7s %5s%n";
    private static final String RESOURCE_ROW = "%-15s %9s %10s %17s %13s %10s%n";
    private final BenchReport r;

    public TableReport(BenchReport report) {
        this.r = report;
    }

    public void print(PrintStream out) {
        out.printf("ToolOnce bench %s, %s, %d cores%n", r.runId(), r.startedAt(), r.cores());
        if (r.warmup() != null) {
            WarmupResult w = r.warmup();
            out.println(warmupLine());
        }
        out.printf(ROW, (Object[]) HEADER);
        rows().forEach(row -> out.printf(ROW, (Object[]) row));
        if (r.loads() != null) {
            out.println(kneeLine());
        }
        if (!resourceRows().isEmpty()) {
            out.printf("%nresources during the burst (%d calls answered)%n", r.burst().results());
            out.printf(RESOURCE_ROW, (Object[]) RESOURCE_HEADER);
            resourceRows().forEach(row -> out.printf(RESOURCE_ROW, (Object[]) row));
            out.println(totalLine());
        }
        statementLines().forEach(out::println);
        loadCostLines().forEach(out::println);
        out.printf("lost: %d%n", r.lost());
    }

    /** What warmed the stack, with the rate of each untimed burst: how far from warm the stack started. */
    String warmupLine() {
        WarmupResult w = r.warmup();
        String line = String.format(Locale.ROOT, "warmed first, untimed: %d intents straight to Kafka, %.0f calls/s for "
                + "%d s through the agent outbox (%.1f s)", w.intents(), w.loadPerSecond(), w.loadSeconds(), w.seconds());
        List<Double> rates = w.burstsPerSecond();
        if (rates != null && !rates.isEmpty()) {
            line += rates.stream().map(v -> String.format(Locale.ROOT, "%.0f", v))
                    .collect(Collectors.joining(", ", "; untimed bursts ", " calls/s"));
            if (!w.settledBursts()) {
                line += " (not settled)";
            }
        }
        return line;
    }

    String kneeLine() {
        LoadResult l = r.loads();
        return l.kneePerSecond() == null
                ? "knee: none, every offered load was sustained (achieved >= 95 % of offered, p99 <= 250 ms)"
                : String.format(Locale.ROOT, "knee: %.0f calls/s offered (%s)", l.kneePerSecond(), l.kneeReason());
    }

    /** CPU per call summed over every component (a part such as the walsenders is inside its component already). */
    String totalLine() {
        Double sum = ResourceUse.totalPerCall(r.burst().resources());
        return sum == null ? "all components: not summed, a component restarted during the burst"
                : String.format(Locale.ROOT, "all components: %.3f cpu s per 1000 calls (%.2f CPU-ms per call)", sum, sum);
    }

    List<String[]> resourceRows() {
        List<String[]> rows = new ArrayList<>();
        if (r.burst() != null) {
            for (ResourceUse u : r.burst().resources()) {
                boolean measured = u.note() == null;
                rows.add(new String[] {u.isPart() ? "  walsenders" : u.component(), Integer.toString(u.processes()),
                        measured ? f2(u.cpuSeconds()) : "restarted",
                        measured ? String.format(Locale.ROOT, "%.3f", u.cpuSecondsPer1000()) : "",
                        f1(u.peakRssMiB()), measured ? f1(u.hwmMiB()) : ""});
            }
        }
        return rows;
    }

    /** What an answered call of each offered load cost (CPU by component, SQL); empty without loads. */
    List<String> loadCostLines() {
        List<String> lines = new ArrayList<>();
        if (r.loads() == null) {
            return lines;
        }
        lines.add("");
        lines.add("cost of the offered loads (the stack's processes from the first write to the last answer; the agent's"
                + " transactions in postgres and the SQL)");
        for (LoadStepResult s : r.loads().steps()) {
            lines.add(String.format(Locale.ROOT, "  %.0f/s: %s", s.offeredPerSecond(), s.costLine()));
        }
        return lines;
    }

    /** The burst's SQL per answered call, and the statements run most often; empty without a burst. */
    List<String> statementLines() {
        List<String> lines = new ArrayList<>();
        StatementUse st = r.burst() == null ? null : r.burst().statements();
        if (st == null) {
            return lines;
        }
        lines.add("");
        if (st.note() != null) {
            lines.add("SQL during the burst: not measured (" + st.note() + ")");
            return lines;
        }
        lines.add(String.format(Locale.ROOT, "SQL during the burst, per answered call: %.2f statements, %.2f commits, "
                + "%.3f rollbacks (pg_stat_statements, every client of the database); rows/run is a batch's size",
                st.statementsPerCall(), st.commitsPerCall(), st.rollbacksPerCall()));
        lines.add("  per call  rows/run  statement");
        for (StatementUse.Top t : st.top()) {
            lines.add(String.format(Locale.ROOT, "  %8.3f  %8.1f  %s", t.perCall(), t.rowsPerRun(), t.query()));
        }
        return lines;
    }

    List<String[]> rows() {
        List<String[]> rows = new ArrayList<>();
        if (r.commit() != null) {
            CommitResult c = r.commit();
            rows.add(row("commit", c.clients() + " clients, step+outbox per tx (the ceiling)", c.commitsPerSecond(),
                    c.commitLatency(), 0));
        }
        if (r.relay() != null) {
            for (RelayRunResult run : r.relay().runs()) {
                String at = String.format(Locale.ROOT, "%.0f/s offered", run.offeredPerSecond());
                rows.add(row("relay", at + ", relay's commit→ack", run.sentPerSecond(), run.relayLatency(), run.lost()));
                rows.add(row("relay", at + ", commit→bench consumer", Double.NaN, run.consumerLatency(), run.lost()));
            }
            BacklogResult b = r.relay().backlog();
            if (b != null) {
                rows.add(row("relay", String.format(Locale.ROOT, "backlog of %d drained (inserted in %.1f s)",
                        b.events(), b.insertSeconds()), b.eventsPerSecond(), null, b.lost()));
            }
        }
        if (r.burst() != null) {
            BurstResult b = r.burst();
            rows.add(row("burst", b.intents() + " intents via Kafka, send→result", b.callsPerSecond(), b.latency(),
                    b.lost()));
            if (b.relayLatency() != null) {
                rows.add(row("burst", "relay's commit→ack meanwhile", Double.NaN, b.relayLatency(), 0));
            }
        }
        if (r.loads() != null) {
            for (LoadStepResult s : r.loads().steps()) {
                rows.add(row("loads", String.format(Locale.ROOT, "%.0f/s offered (sent %.0f/s), commit→step",
                        s.offeredPerSecond(), s.sentPerSecond()), s.achievedPerSecond(), s.latency(), s.lost()));
                if (s.hops() != null) {
                    rows.add(row("loads", "  step written→call planned", Double.NaN, s.hops().toExecutor(), -1));
                    rows.add(row("loads", "  planned→started (claim)", Double.NaN, s.hops().claim(), -1));
                    rows.add(row("loads", "  started→terminal (tool, commit)", Double.NaN, s.hops().run(), -1));
                    rows.add(row("loads", "  terminal→step answered", Double.NaN, s.hops().back(), -1));
                }
            }
        }
        if (r.awaitable() != null) {
            AwaitableResult a = r.awaitable();
            rows.add(row("await", String.format(Locale.ROOT, "%d calls one at a time, call()→answer (poll %d ms)",
                    a.calls(), a.pollMillis()), a.callsPerSecond(), a.latency(), a.unanswered()));
        }
        return rows;
    }

    /**
     * @param rate events or calls per second, NaN for a row without one; @param l null for a row without latencies;
     * @param lost negative for a row that counts no losses of its own (a segment of the row above)
     */
    private String[] row(String phase, String figure, double rate, LatencySummary l, long lost) {
        boolean hasRate = !Double.isNaN(rate);
        boolean hasCeiling = r.commit() != null && r.commit().commitsPerSecond() > 0;
        boolean hasLatency = l != null && l.count() > 0;
        return new String[] {phase, figure, hasRate ? f1(rate) : "",
                hasRate && hasCeiling ? f1(100 * rate / r.commit().commitsPerSecond()) + "%" : "",
                hasLatency ? f1(l.p50()) : "", hasLatency ? f1(l.p95()) : "", hasLatency ? f1(l.p99()) : "",
                hasLatency ? f1(l.max()) : "", l == null ? "" : Long.toString(l.count()),
                lost < 0 ? "" : Long.toString(lost)};
    }

    private static String f1(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
