package dev.toolonce.relay.offsets;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * DML of {@code toolonce_relay.offsets}: one row per replication slot holding the Debezium
 * offsets of the engine that reads that slot. Stateless; every method uses the caller's
 * connection (auto-commit expected).
 */
public final class OffsetsRepository {

    static final String SELECT = """
            SELECT offsets FROM toolonce_relay.offsets WHERE slot_name = ?""";
    static final String UPSERT = """
            INSERT INTO toolonce_relay.offsets (slot_name, offsets, updated_at)
            VALUES (?, ?, clock_timestamp())
            ON CONFLICT (slot_name) DO UPDATE SET offsets = excluded.offsets, updated_at = excluded.updated_at""";
    static final String DELETE = """
            DELETE FROM toolonce_relay.offsets WHERE slot_name = ?""";

    private OffsetsRepository() {
    }

    /** The stored offsets text of {@code slot}, empty when none is stored. */
    public static Optional<String> load(Connection connection, String slot) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(SELECT)) {
            ps.setString(1, slot);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    /** Stores (replaces) the offsets text of {@code slot}. Idempotent. */
    public static void save(Connection connection, String slot, String offsets) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(UPSERT)) {
            ps.setString(1, slot);
            ps.setString(2, offsets);
            ps.executeUpdate();
        }
    }

    /**
     * Deletes the offsets of {@code slot}.
     *
     * @return whether a row existed
     */
    public static boolean delete(Connection connection, String slot) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(DELETE)) {
            ps.setString(1, slot);
            return ps.executeUpdate() > 0;
        }
    }
}
