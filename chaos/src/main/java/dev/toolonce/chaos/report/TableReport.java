package dev.toolonce.chaos.report;

import dev.toolonce.schemas.PrometheusText;
import java.io.PrintStream;
import java.util.Map;
import java.util.TreeMap;

/** The table on stdout and the one-line summary after it. */
public final class TableReport {
    private TableReport() {
    }

    public static void print(ChaosReport r, PrintStream out) {
        out.printf("%n== chaos %s, run %s: %d rounds per fault, %d s ==%n", r.mode(), r.runId(), r.perFault(), r.seconds());
        String format = "%-23s %5s %6s %5s %6s %8s %5s %5s %5s %6s %6s %6s %8s %8s %8s%n";
        out.printf(format, "fault", "inj", "calls", "sagas", "msgs", "absorbed", "dup", "lost", "stuck", "unknwn", "recon",
                "review", "rec p50", "rec p95", "rec p99");
        for (FaultSummary f : r.faults()) {
            out.printf(format, f.fault() + (f.unjudgedRounds() > 0 ? " (" + f.unjudgedRounds() + " unjudged)" : ""),
                    f.injections() + (f.missedRounds() > 0 ? "!" : ""), f.calls(), f.sagas(),
                    f.messages(),
                    f.absorbed(), f.duplicates(), f.lost(), f.stuck(), f.unknown(), f.reconciled(), f.review(),
                    ms(f.recoveryP50()), ms(f.recoveryP95()), ms(f.recoveryP99()));
        }
        out.printf(format, "total", r.injections(), r.calls(), r.sagas(), r.messages(), r.absorbed(), r.duplicates(), r.lost(),
                r.stuck(), r.unknown(), r.reconciled(), r.review(), "", "", "");
        out.printf("rates: duplicate side effects %.4f, reconciliation success %s, idempotency conflicts %.4f "
                        + "(refused %s), manual recovery %.4f, compensation success %s; in doubt (hand-over failed "
                        + "during an outage) %d%n",
                r.duplicateSideEffectRate(), pct(r.reconciliationSuccessRate()), r.idempotencyConflictRate(),
                pct(r.conflictRefusalRate()), r.manualRecoveryRate(), pct(r.compensationSuccessRate()), r.inDoubt());
        if (r.faults().stream().anyMatch(f -> !f.meters().isEmpty())) {
            out.println("meters moved per fault (toolonce_* counters and timer counts on /actuator/prometheus, summed"
                    + " over services and labels; --json has every series):");
            for (FaultSummary f : r.faults()) {
                out.printf("  %-23s %s%n", f.fault(), byName(f.meters()));
            }
        }
        out.printf("intents=%d injections=%d duplicate_side_effects=%d lost=%d stuck=%d needs_review=%d%n",
                r.messages(), r.injections(), r.duplicates(), r.lost(), r.stuck(), r.review());
        if (r.passed()) {
            out.println("RESULT: passed");
        } else {
            r.problems().forEach(p -> out.println("RESULT: FAILED: " + p));
        }
    }

    /** {@code name=total} per metric name, labels summed away, in name order. */
    static String byName(Map<String, Double> series) {
        Map<String, Double> names = new TreeMap<>();
        series.forEach((s, v) -> names.merge(PrometheusText.name(s), v, Double::sum));
        if (names.isEmpty()) {
            return "(none)";
        }
        StringBuilder line = new StringBuilder();
        names.forEach((n, v) -> line.append(line.isEmpty() ? "" : " ").append(n).append('=').append(Math.round(v)));
        return line.toString();
    }

    static String ms(Long millis) {
        return millis == null ? "-" : millis + " ms";
    }

    static String pct(Double ratio) {
        return ratio == null ? "-" : String.format("%.1f%%", ratio * 100);
    }
}
