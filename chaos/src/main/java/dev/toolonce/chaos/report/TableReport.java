package dev.toolonce.chaos.report;

import java.io.PrintStream;

/** The table on stdout and the one-line summary after it. */
public final class TableReport {
    private TableReport() {
    }

    public static void print(ChaosReport r, PrintStream out) {
        out.printf("%n== chaos %s, run %s: %d rounds per fault, %d s ==%n", r.mode(), r.runId(), r.perFault(), r.seconds());
        String format = "%-23s %5s %6s %6s %8s %5s %5s %5s %6s %6s %6s %8s %8s %8s%n";
        out.printf(format, "fault", "inj", "calls", "msgs", "absorbed", "dup", "lost", "stuck", "unknwn", "recon",
                "review", "rec p50", "rec p95", "rec p99");
        for (FaultSummary f : r.faults()) {
            out.printf(format, f.fault(), f.injections() + (f.missedRounds() > 0 ? "!" : ""), f.calls(), f.messages(),
                    f.absorbed(), f.duplicates(), f.lost(), f.stuck(), f.unknown(), f.reconciled(), f.review(),
                    ms(f.recoveryP50()), ms(f.recoveryP95()), ms(f.recoveryP99()));
        }
        out.printf(format, "total", r.injections(), r.calls(), r.messages(), r.absorbed(), r.duplicates(), r.lost(),
                r.stuck(), r.unknown(), r.reconciled(), r.review(), "", "", "");
        out.printf("rates: duplicate side effects %.4f, reconciliation success %s, idempotency conflicts %.4f "
                        + "(refused %s), manual recovery %.4f; in doubt (hand-over failed during an outage) %d%n",
                r.duplicateSideEffectRate(), pct(r.reconciliationSuccessRate()), r.idempotencyConflictRate(),
                pct(r.conflictRefusalRate()), r.manualRecoveryRate(), r.inDoubt());
        out.printf("intents=%d injections=%d duplicate_side_effects=%d lost=%d stuck=%d needs_review=%d%n",
                r.messages(), r.injections(), r.duplicates(), r.lost(), r.stuck(), r.review());
        if (r.passed()) {
            out.println("RESULT: passed");
        } else {
            r.problems().forEach(p -> out.println("RESULT: FAILED: " + p));
        }
    }

    static String ms(Long millis) {
        return millis == null ? "-" : millis + " ms";
    }

    static String pct(Double ratio) {
        return ratio == null ? "-" : String.format("%.1f%%", ratio * 100);
    }
}
