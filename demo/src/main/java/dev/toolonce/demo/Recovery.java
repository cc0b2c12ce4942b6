package dev.toolonce.demo;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/**
 * Recovery figures of one run, read from the executor's ledger ({@code tool_call_attempt}): calls whose
 * outcome became unknown, how many were resolved automatically, how many reached review, and how long
 * each took from its first UNKNOWN to a final state or review.
 */
record Recovery(int unknown, int reconciled, int toReview, List<Double> recoveryMillis) {
    private static final String SQL = """
            SELECT c.id,
                   min(a.at) FILTER (WHERE a.to_state = 'UNKNOWN') AS unknown_at,
                   min(a.at) FILTER (WHERE a.to_state IN ('COMMITTED', 'FAILED_FINAL', 'NEEDS_REVIEW')
                                     AND a.at >= (SELECT min(b.at) FROM executor.tool_call_attempt b
                                                   WHERE b.call_id = c.id AND b.to_state = 'UNKNOWN')) AS settled_at,
                   bool_or(a.to_state = 'NEEDS_REVIEW') AS reviewed
              FROM executor.tool_call c JOIN executor.tool_call_attempt a ON a.call_id = c.id
             WHERE c.tenant_id = ?
             GROUP BY c.id
            HAVING bool_or(a.to_state = 'UNKNOWN')
            """;

    static Recovery read(String pgUrl, String tenant) throws Exception {
        int unknown = 0;
        int reconciled = 0;
        int review = 0;
        List<Double> times = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(pgUrl, "postgres", "");
             PreparedStatement ps = c.prepareStatement(SQL)) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    unknown++;
                    if (rs.getBoolean("reviewed")) {
                        review++;
                    } else if (rs.getTimestamp("settled_at") != null) {
                        reconciled++;
                    }
                    if (rs.getTimestamp("settled_at") != null) {
                        times.add((double) (rs.getTimestamp("settled_at").getTime() - rs.getTimestamp("unknown_at").getTime()));
                    }
                }
            }
        }
        times.sort(null);
        return new Recovery(unknown, reconciled, review, times);
    }

    /** Nearest-rank percentile in ms, or NaN when nothing was recovered. */
    double percentile(double p) {
        if (recoveryMillis.isEmpty()) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * recoveryMillis.size());
        return recoveryMillis.get(Math.max(0, rank - 1));
    }
}
