package dev.toolonce.bench.stats;

import dev.toolonce.bench.report.StatementUse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Statement and transaction counters of the connected database, read before and after a phase: what
 * {@link StatementUse} reports per answered call. Needs {@code pg_stat_statements} in
 * {@code shared_preload_libraries} (the local stack and the test stack have it); the extension is created in the
 * database when missing. Without it the figures are reported as unavailable, never guessed.
 */
public final class StatementCounts {
    static final int TOP = 20;
    private static final String STATEMENTS = """
            SELECT coalesce(queryid::text, md5(query)) AS id, sum(calls)::bigint AS calls, min(query) AS query,
                   sum(rows)::bigint AS rows
              FROM pg_stat_statements
             WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
             GROUP BY 1""";
    private static final String TRANSACTIONS = """
            SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = current_database()""";

    /**
     * The counters at one moment: calls by statement, the rows they returned or changed in all, their texts, commits
     * and rollbacks.
     */
    public record Snapshot(Map<String, Long> calls, Map<String, Long> rows, Map<String, String> texts, long commits,
                           long rollbacks) {
    }

    private StatementCounts() {
    }

    /**
     * @param c a connection to the stack's database, not in auto-commit (the read is committed)
     * @return the counters, or null with the reason printed when {@code pg_stat_statements} cannot be read
     */
    public static Snapshot take(Connection c) {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            Map<String, Long> calls = new HashMap<>();
            Map<String, Long> rows = new HashMap<>();
            Map<String, String> texts = new HashMap<>();
            try (ResultSet rs = s.executeQuery(STATEMENTS)) {
                while (rs.next()) {
                    calls.put(rs.getString(1), rs.getLong(2));
                    texts.put(rs.getString(1), rs.getString(3));
                    rows.put(rs.getString(1), rs.getLong(4));
                }
            }
            long commits;
            long rollbacks;
            try (ResultSet rs = s.executeQuery(TRANSACTIONS)) {
                rs.next();
                commits = rs.getLong(1);
                rollbacks = rs.getLong(2);
            }
            c.commit();
            return new Snapshot(calls, rows, texts, commits, rollbacks);
        } catch (SQLException e) {
            System.out.println("    (statement counts are not readable: " + e.getMessage().lines().findFirst().orElse("")
                    + ")");
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the connection is closed by the caller
            }
            return null;
        }
    }

    /**
     * What happened between two snapshots, per answered call, and how many rows each statement took per execution (the
     * batch size of a set-based statement). A statement evicted from {@code pg_stat_statements} meanwhile (it keeps
     * 5,000 by default) counts from zero, never below.
     */
    public static StatementUse between(Snapshot before, Snapshot after, long answered) {
        if (before == null || after == null) {
            return StatementUse.unavailable("pg_stat_statements could not be read (is it in shared_preload_libraries?)");
        }
        if (answered <= 0) {
            return StatementUse.unavailable("no call was answered");
        }
        long total = 0;
        List<Map.Entry<String, Long>> delta = new ArrayList<>();
        for (Map.Entry<String, Long> e : after.calls().entrySet()) {
            long d = grown(before.calls(), after.calls(), e.getKey());
            if (d > 0) {
                total += d;
                delta.add(Map.entry(e.getKey(), d));
            }
        }
        delta.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()));
        List<StatementUse.Top> top = delta.stream().limit(TOP)
                .map(e -> new StatementUse.Top(shorten(after.texts().get(e.getKey())), (double) e.getValue() / answered,
                        (double) grown(before.rows(), after.rows(), e.getKey()) / e.getValue()))
                .toList();
        return new StatementUse((double) total / answered, (double) (after.commits() - before.commits()) / answered,
                (double) (after.rollbacks() - before.rollbacks()) / answered, top, null);
    }

    /** How much one counter of a statement grew between two snapshots; one that fell (evicted meanwhile) counts 0. */
    private static long grown(Map<String, Long> before, Map<String, Long> after, String id) {
        return Math.max(0, after.getOrDefault(id, 0L) - before.getOrDefault(id, 0L));
    }

    static String shorten(String query) {
        String flat = query == null ? "" : query.replaceAll("\\s+", " ").trim();
        return flat.length() <= 120 ? flat : flat.substring(0, 117) + "...";
    }
}
