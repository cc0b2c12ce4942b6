package dev.toolonce.relay.slot;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Catalog queries and slot functions used to prepare a source before its engine starts, and the
 * slot query of the source probe ({@link #slotState}). Stateless; every method uses the caller's
 * auto-commit connection (slot functions refuse to run in a transaction that has written).
 */
public final class SlotRepository {

    static final String FIND_SLOT = """
            SELECT plugin, slot_type, database FROM pg_replication_slots WHERE slot_name = ?""";
    static final String CREATE_SLOT = """
            SELECT lsn::text FROM pg_create_logical_replication_slot(?, 'pgoutput')""";
    static final String PUBLICATION_EXISTS = """
            SELECT 1 FROM pg_publication WHERE pubname = ?""";
    static final String PUBLICATION_HAS_TABLE = """
            SELECT 1 FROM pg_publication_tables WHERE pubname = ? AND schemaname = ? AND tablename = ?""";
    static final String CURRENT_DATABASE = """
            SELECT current_database()""";
    /** Decodes at most up to the first transaction that the publication emits. */
    static final String PEEK_ONE = """
            SELECT count(*) FROM pg_logical_slot_peek_binary_changes(?, pg_current_wal_lsn(), 1,
                'proto_version', '1', 'publication_names', ?)""";
    static final String ADVANCE_TO_NOW = """
            SELECT end_lsn::text FROM pg_replication_slot_advance(?, pg_current_wal_lsn())""";
    /** The backend streaming from the slot, and its client, while one does. */
    static final String SLOT_HOLDER = """
            SELECT s.active_pid, coalesce(host(a.client_addr) || ':' || a.client_port, 'local socket')
              FROM pg_replication_slots s LEFT JOIN pg_stat_activity a ON a.pid = s.active_pid
             WHERE s.slot_name = ? AND s.active""";
    /** WAL the slot keeps (from restart_lsn) and has not confirmed (from confirmed_flush_lsn), in bytes. */
    static final String SLOT_STATE = """
            SELECT active, wal_status,
                   pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint,
                   pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn)::bigint
              FROM pg_replication_slots WHERE slot_name = ?""";

    /** What {@code pg_replication_slots} says about a slot. */
    record SlotInfo(String plugin, String type, String database) {
    }

    /**
     * What {@code pg_replication_slots} says about a slot's progress.
     *
     * @param active            whether a process streams from it now
     * @param walStatus         {@code reserved}, {@code extended}, {@code unreserved} or {@code lost}
     * @param retainedWalBytes  WAL kept for it (current position − restart_lsn), null when unknown
     * @param confirmedLagBytes WAL not yet confirmed (current position − confirmed_flush_lsn), null when unknown
     */
    public record SlotState(boolean active, String walStatus, Long retainedWalBytes, Long confirmedLagBytes) {
    }

    private SlotRepository() {
    }

    /**
     * @param c    an auto-commit connection to the source database
     * @param slot the slot's name
     * @return the slot's state, or empty when no such slot exists
     * @throws SQLException when the query fails (the database does not answer)
     */
    public static Optional<SlotState> slotState(Connection c, String slot) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SLOT_STATE)) {
            ps.setString(1, slot);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new SlotState(rs.getBoolean(1), rs.getString(2), rs.getObject(3, Long.class),
                        rs.getObject(4, Long.class)));
            }
        }
    }

    /**
     * Who streams from the slot now, as {@code "PostgreSQL backend PID n for client host:port"}; empty when nobody
     * does (or the slot is missing).
     */
    static Optional<String> holder(Connection c, String slot) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SLOT_HOLDER)) {
            ps.setString(1, slot);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of("PostgreSQL backend PID " + rs.getInt(1) + " for client " + rs.getString(2))
                        : Optional.empty();
            }
        }
    }

    static Optional<SlotInfo> findSlot(Connection c, String slot) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(FIND_SLOT)) {
            ps.setString(1, slot);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new SlotInfo(rs.getString(1), rs.getString(2), rs.getString(3)))
                        : Optional.empty();
            }
        }
    }

    /** Creates a logical pgoutput slot; returns its consistent point. */
    static String createSlot(Connection c, String slot) throws SQLException {
        return queryString(c, CREATE_SLOT, slot);
    }

    static boolean publicationExists(Connection c, String publication) throws SQLException {
        return exists(c, PUBLICATION_EXISTS, publication);
    }

    static boolean publicationHasTable(Connection c, String publication, String schema, String table)
            throws SQLException {
        return exists(c, PUBLICATION_HAS_TABLE, publication, schema, table);
    }

    static String currentDatabase(Connection c) throws SQLException {
        return queryString(c, CURRENT_DATABASE);
    }

    static void peekOne(Connection c, String slot, String publication) throws SQLException {
        queryString(c, PEEK_ONE, slot, publication);
    }

    static String advanceToNow(Connection c, String slot) throws SQLException {
        return queryString(c, ADVANCE_TO_NOW, slot);
    }

    private static boolean exists(Connection c, String sql, String... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setString(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static String queryString(Connection c, String sql, String... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setString(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }
}
