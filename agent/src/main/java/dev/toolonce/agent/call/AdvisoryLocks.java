package dev.toolonce.agent.call;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL session advisory locks of {@link LocalCalls}: held by the session that runs a call, released by
 * PostgreSQL when that session ends — which is how a later caller tells a call running now from one whose runner died.
 * Needs one database session per pooled connection (a connection pool such as HikariCP, or PgBouncer in session
 * mode); a transaction-mode pooler breaks it.
 */
final class AdvisoryLocks {
    private static final Logger log = LoggerFactory.getLogger(AdvisoryLocks.class);

    private AdvisoryLocks() {
    }

    /** Takes the lock for this session unless another session holds it. */
    static boolean tryLock(Connection c, long key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /**
     * Releases the lock. When it cannot be released, or this session did not hold it (the session is not the one
     * that took it), the connection is aborted: a pooled session keeping the lock would make every later caller of
     * that call wait.
     */
    static void unlock(Connection c, long key) {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getBoolean(1)) {
                    return;
                }
            }
            log.error("an advisory lock of a local call was not held by the session releasing it: is the pool in "
                    + "transaction mode? closing the connection");
        } catch (SQLException e) {
            log.error("could not release the advisory lock of a local call; closing its connection", e);
        }
        try {
            c.abort(Runnable::run);
        } catch (SQLException ignored) {
            // closed either way
        }
    }

    /** The lock of a call: 64 bits of its key's digest (a collision only makes two calls wait for each other). */
    static long of(LocalCallRef ref) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (String part : List.of("toolonce-local-call", ref.tenantId(), ref.conversationId(), ref.name(),
                    ref.idempotencyKey())) {
                byte[] b = part.getBytes(StandardCharsets.UTF_8);
                md.update(new byte[] {(byte) (b.length >>> 24), (byte) (b.length >>> 16), (byte) (b.length >>> 8),
                        (byte) b.length});
                md.update(b);
            }
            byte[] d = md.digest();
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (d[i] & 0xff);
            }
            return v;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
