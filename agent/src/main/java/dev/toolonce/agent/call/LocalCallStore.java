package dev.toolonce.agent.call;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code local_call} table (agent migration V10), its one home (docs/protocol.md §20): every statement is a guarded
 * move of {@link LocalCallState}'s table and reports whether it won. Statements run on the connection they are given,
 * so that {@link LocalCalls} can claim a call in the session that holds the call's advisory lock.
 */
final class LocalCallStore {
    /** A row as a call reads it. */
    record Row(LocalCallState state, String requestHash, String answer, String errorMessage) {
    }

    private static final String BY_KEY = "tenant_id = ? AND conversation_id = ? AND name = ? AND idempotency_key = ?";
    private static final String CLAIM = """
            INSERT INTO %s.local_call (tenant_id, conversation_id, name, idempotency_key, request_hash, state)
            VALUES (?, ?, ?, ?, ?, 'RUNNING') ON CONFLICT DO NOTHING
            """;
    private static final String FIND = """
            SELECT state, request_hash, answer, error_message FROM %s.local_call WHERE %s
            """;
    private static final String MOVE = """
            UPDATE %s.local_call SET state = ?, answer = coalesce(?, answer), error_message = coalesce(?, error_message),
                   finished_at = CASE WHEN ? THEN clock_timestamp() ELSE finished_at END
             WHERE %s AND state = ANY(?)
            """;
    private static final String RESOLVE = """
            UPDATE %s.local_call SET state = ?, answer = ?, error_message = ?, resolved_by = ?, resolution_reason = ?,
                   finished_at = clock_timestamp()
             WHERE %s AND state = 'NEEDS_REVIEW'
            """;
    private static final String RUNNING = """
            SELECT conversation_id, name, idempotency_key FROM %s.local_call
             WHERE tenant_id = ? AND state = 'RUNNING' ORDER BY claimed_at LIMIT ?
            """;
    private static final String IN_REVIEW = """
            SELECT conversation_id, name, idempotency_key, claimed_at FROM %s.local_call
             WHERE tenant_id = ? AND state = 'NEEDS_REVIEW' ORDER BY claimed_at LIMIT ?
            """;

    private final String claim;
    private final String find;
    private final String move;
    private final String resolve;
    private final String running;
    private final String inReview;

    LocalCallStore(String schema) {
        this.claim = CLAIM.formatted(schema);
        this.find = FIND.formatted(schema, BY_KEY);
        this.move = MOVE.formatted(schema, BY_KEY);
        this.resolve = RESOLVE.formatted(schema, BY_KEY);
        this.running = RUNNING.formatted(schema);
        this.inReview = IN_REVIEW.formatted(schema);
    }

    /** Inserts the call as {@code RUNNING}; false when its row exists. */
    boolean claim(Connection c, LocalCallRef ref, String requestHash) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(claim)) {
            ps.setString(bind(ps, 1, ref), requestHash);
            return ps.executeUpdate() == 1;
        }
    }

    Optional<Row> find(Connection c, LocalCallRef ref) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(find)) {
            bind(ps, 1, ref);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Row(LocalCallState.valueOf(rs.getString(1)), rs.getString(2),
                        rs.getString(3), rs.getString(4))) : Optional.empty();
            }
        }
    }

    /**
     * Moves the call to {@code to} from any state the table lets make that move, keeping the answer or the error given
     * (null keeps the row's).
     *
     * @return whether it moved
     */
    boolean move(Connection c, LocalCallRef ref, LocalCallState to, String answer, String error) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(move)) {
            ps.setString(1, to.name());
            ps.setString(2, answer);
            ps.setString(3, error);
            ps.setBoolean(4, to == LocalCallState.DONE || to == LocalCallState.FAILED);
            int next = bind(ps, 5, ref);
            ps.setArray(next, states(c, LocalCallState.from(to)));
            return ps.executeUpdate() == 1;
        }
    }

    /** A person's decision: {@code NEEDS_REVIEW} to {@code DONE} or {@code FAILED}; whether it moved. */
    boolean resolve(Connection c, LocalCallRef ref, LocalCallState to, String answer, String error, String by,
                    String reason) throws SQLException {
        if (!LocalCallState.NEEDS_REVIEW.canMoveTo(to)) {
            throw new IllegalArgumentException("a call in review is resolved to DONE or FAILED, not " + to);
        }
        try (PreparedStatement ps = c.prepareStatement(resolve)) {
            ps.setString(1, to.name());
            ps.setString(2, answer);
            ps.setString(3, error);
            ps.setString(4, by);
            ps.setString(5, reason);
            bind(ps, 6, ref);
            return ps.executeUpdate() == 1;
        }
    }

    /** The tenant's {@code RUNNING} calls, oldest first. */
    List<LocalCallRef> running(Connection c, String tenantId, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(running)) {
            ps.setString(1, tenantId);
            ps.setInt(2, limit);
            List<LocalCallRef> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new LocalCallRef(tenantId, rs.getString(1), rs.getString(2), rs.getString(3)));
                }
            }
            return out;
        }
    }

    /** The tenant's calls in review, oldest first. */
    List<LocalCalls.Held> inReview(Connection c, String tenantId, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(inReview)) {
            ps.setString(1, tenantId);
            ps.setInt(2, limit);
            List<LocalCalls.Held> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new LocalCalls.Held(new LocalCallRef(tenantId, rs.getString(1), rs.getString(2), rs.getString(3)),
                            rs.getTimestamp(4).toInstant()));
                }
            }
            return out;
        }
    }

    private static Array states(Connection c, List<LocalCallState> states) throws SQLException {
        return c.createArrayOf("text", states.stream().map(Enum::name).toArray());
    }

    /** Binds the row's key from {@code at}; returns the next index. */
    private static int bind(PreparedStatement ps, int at, LocalCallRef ref) throws SQLException {
        ps.setString(at, ref.tenantId());
        ps.setString(at + 1, ref.conversationId());
        ps.setString(at + 2, ref.name());
        ps.setString(at + 3, ref.idempotencyKey());
        return at + 4;
    }
}
