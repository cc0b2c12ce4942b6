package dev.toolonce.testsupport;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** Proof that a racer is blocked: how many sessions of a PostgreSQL database wait on a lock right now. */
public final class LockWaits {
    private static final String WAITING = "SELECT count(*) FROM pg_stat_activity "
            + "WHERE datname = current_database() AND wait_event_type = 'Lock'";

    private LockWaits() {
    }

    /** Sessions of {@code db}'s database waiting on a lock ({@code pg_stat_activity}). */
    public static int sessionsWaiting(DataSource db) {
        try (Connection c = db.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(WAITING)) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read pg_stat_activity", e);
        }
    }
}
