package dev.toolonce.relay.snapshot;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * DML of {@code toolonce_relay.snapshot_done}: whether the outbox snapshot of a slot completed.
 * Stateless; every method uses the caller's auto-commit connection.
 */
public final class SnapshotMarkers {

    static final String EXISTS = """
            SELECT 1 FROM toolonce_relay.snapshot_done WHERE slot_name = ?""";
    static final String UPSERT = """
            INSERT INTO toolonce_relay.snapshot_done (slot_name, rows_sent, completed_at)
            VALUES (?, ?, clock_timestamp())
            ON CONFLICT (slot_name) DO UPDATE SET rows_sent = excluded.rows_sent, completed_at = excluded.completed_at""";
    static final String DELETE = """
            DELETE FROM toolonce_relay.snapshot_done WHERE slot_name = ?""";

    private SnapshotMarkers() {
    }

    /** Whether a completed snapshot is recorded for {@code slot}. */
    public static boolean isDone(Connection c, String slot) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(EXISTS)) {
            ps.setString(1, slot);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Records that the snapshot of {@code slot} completed with {@code rows} rows. Idempotent. */
    public static void markDone(Connection c, String slot, long rows) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(UPSERT)) {
            ps.setString(1, slot);
            ps.setLong(2, rows);
            ps.executeUpdate();
        }
    }

    /**
     * Forgets the snapshot of {@code slot}: the slot was created or moved, so the rows before its
     * new position must be published again.
     *
     * @return whether a marker existed
     */
    public static boolean clear(Connection c, String slot) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(DELETE)) {
            ps.setString(1, slot);
            return ps.executeUpdate() > 0;
        }
    }
}
