package dev.toolonce.bench.report;

import java.util.List;

/**
 * The SQL one answered call cost during the burst, read from {@code pg_stat_statements} and {@code pg_stat_database}
 * of the stack's database before and after: every statement of every client of that database (the executor, the
 * result consumer, the relay's own queries, the {@code counter} tool's ledger when it is the tool), divided by the
 * calls answered.
 *
 * @param statementsPerCall statements executed per answered call (utility statements such as {@code COMMIT} included)
 * @param commitsPerCall    transactions committed per answered call
 * @param rollbacksPerCall  transactions rolled back per answered call
 * @param top               the statements run most often, most first
 * @param note              why the figures are missing (the extension is not loaded); null when measured
 */
public record StatementUse(Double statementsPerCall, Double commitsPerCall, Double rollbacksPerCall, List<Top> top,
                           String note) {

    /**
     * One statement: its text (whitespace collapsed, cut at 120 characters), how often one call ran it, and the rows
     * one execution returned or changed on average — for a set-based statement of a batch, the batch's size.
     */
    public record Top(String query, double perCall, double rowsPerRun) {
    }

    public static StatementUse unavailable(String why) {
        return new StatementUse(null, null, null, List.of(), why);
    }
}
