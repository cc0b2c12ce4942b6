package dev.toolonce.agent.call;

import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ResultStatus;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * An application's own tool method run effectively once (docs/agent-calls.md §8): the method runs in the application,
 * not behind the executor, so its record is a {@code local_call} row of the agent schema, keyed like a model's call to
 * a catalogue tool (§3) under the pseudo-tool {@value #TOOL} and the method's name.
 *
 * <ol>
 *   <li><b>Claimed before it runs.</b> The row is inserted ({@code RUNNING}) and committed before the method is called,
 *       while this caller holds a PostgreSQL session advisory lock on the call. The method's answer is then written
 *       ({@code DONE}); an exception it throws is written as {@code FAILED} (the effect may or may not have happened,
 *       so the call is not run again under that key).</li>
 *   <li><b>Asked again, never run again.</b> Under a key whose row exists the method is not called: a {@code DONE} or
 *       {@code FAILED} row is its answer ({@code replayed: true}); other arguments under the same key are refused
 *       ({@code IDEMPOTENCY_PARAMETER_MISMATCH}).</li>
 *   <li><b>A claim whose holder died is a review.</b> A {@code RUNNING} row whose advisory lock is free was claimed by
 *       a session that is gone (the process was killed, or lost its database connection, mid-call): whether the effect
 *       happened is not known, so it becomes {@code NEEDS_REVIEW} and a person {@link #resolve}s it. A {@code RUNNING}
 *       row whose lock is held is running now, elsewhere: the caller waits for it at most {@code wait}, then is told
 *       it is pending.</li>
 * </ol>
 *
 * <p>So the method gets at most one effect per key, or a review; exactly one when what it calls takes the key
 * ({@code method} is given it) as its own idempotency key. A method whose effect is a write to this same database can
 * get exactly one effect another way: in a transaction of its own that also moves the row, which this class does not
 * offer yet.
 *
 * <p>The method runs while its caller holds a pooled connection (the lock's session). Thread-safe; table owner of
 * {@code local_call} (docs/protocol.md §20).
 */
public final class LocalCalls {
    /** The pseudo-tool whose operation is the method's name, in the call's key and request hash. */
    public static final String TOOL = "local";

    private static final Logger log = LoggerFactory.getLogger(LocalCalls.class);
    private static final EventCodec CODEC = new EventCodec();

    private final DataSource dataSource;
    private final String tenantId;
    private final Duration wait;
    private final Duration pollEvery;
    private final String claim;
    private final String read;
    private final String finish;
    private final String toReview;
    private final String inReview;
    private final String resolve;

    /**
     * @param dataSource the agent's database
     * @param schema     the agent's schema
     * @param tenantId   the tenant every call is made for
     * @param wait       how long a call waits for the same call running elsewhere before it is told it is pending
     */
    public LocalCalls(DataSource dataSource, String schema, String tenantId, Duration wait) {
        this.dataSource = dataSource;
        this.tenantId = tenantId;
        this.wait = wait;
        this.pollEvery = Duration.ofMillis(50);
        String t = schema + ".local_call";
        String byKey = " WHERE tenant_id = ? AND conversation_id = ? AND name = ? AND idempotency_key = ?";
        this.claim = "INSERT INTO " + t + " (tenant_id, conversation_id, name, idempotency_key, request_hash, state) "
                + "VALUES (?, ?, ?, ?, ?, 'RUNNING') ON CONFLICT DO NOTHING";
        this.read = "SELECT state, request_hash, answer, error_message FROM " + t + byKey;
        this.finish = "UPDATE " + t + " SET state = ?, answer = ?, error_message = ?, finished_at = clock_timestamp()"
                + byKey + " AND state IN ('RUNNING', 'NEEDS_REVIEW')";
        this.toReview = "UPDATE " + t + " SET state = 'NEEDS_REVIEW'" + byKey + " AND state = 'RUNNING'";
        this.inReview = "SELECT conversation_id, name, idempotency_key, claimed_at FROM " + t
                + " WHERE tenant_id = ? AND state = 'NEEDS_REVIEW' ORDER BY claimed_at LIMIT ?";
        this.resolve = "UPDATE " + t + " SET state = ?, answer = ?, error_message = ?, resolved_by = ?, "
                + "resolution_reason = ?, finished_at = clock_timestamp()" + byKey + " AND state = 'NEEDS_REVIEW'";
    }

    public String tenantId() {
        return tenantId;
    }

    /**
     * Runs a method a model asked for in a turn of a conversation, once per key, and answers as the model should read
     * it ({@link ModelCalls#answer}). Arguments that are not a JSON object, or that the contract refuses, are answered as
     * a refusal and the method is not called.
     *
     * @param name   the method's name, as the model calls it
     * @param method the method: given its key, returns its answer
     */
    public String call(String name, String arguments, TurnKeys turn, UnaryOperator<String> method) {
        JsonNode args;
        String key;
        String hash;
        try {
            args = ModelCalls.arguments(arguments);
            key = turn.next(TOOL, name, args);
            hash = CallKeys.requestHash(tenantId, TOOL, name, args);
        } catch (IllegalArgumentException e) { // InvalidArgumentsException among them
            return ModelCalls.refusal("INVALID_ARGUMENTS", e.getMessage());
        }
        return ModelCalls.answer(run(turn.conversationId(), name, key, hash, method));
    }

    /**
     * Runs {@code method} once under {@code key} (see the class's description).
     *
     * @param requestHash what makes the call the same request ({@link CallKeys#requestHash})
     * @return the answer ({@code COMMITTED} with the method's answer, {@code FAILED_FINAL TOOL_ERROR} with its
     *         exception's message, {@code REJECTED IDEMPOTENCY_PARAMETER_MISMATCH}), or {@code NEEDS_REVIEW} /
     *         {@code PENDING}
     */
    public CallOutcome run(String conversationId, String name, String key, String requestHash,
                           UnaryOperator<String> method) {
        CallRef ref = new CallRef(tenantId, conversationId, TOOL + ":" + name, key);
        long lock = lockKey(ref);
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(true);
                if (tryLock(c, lock)) {
                    try {
                        return runLocked(c, ref, requestHash, method);
                    } finally {
                        unlock(c, lock);
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException("the local call " + ref + " could not be read or claimed: "
                        + e.getMessage(), e);
            }
            // running now in another session: wait for its answer
            if (System.nanoTime() - deadline >= 0) {
                return new CallOutcome.Pending(ref, "PENDING");
            }
            try {
                Thread.sleep(pollEvery.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new CallOutcome.Pending(ref, "PENDING");
            }
        }
    }

    private CallOutcome runLocked(Connection c, CallRef ref, String requestHash, UnaryOperator<String> method)
            throws SQLException {
        if (update(c, claim, ref, requestHash) == 1) {
            String answer;
            try {
                answer = method.apply(ref.idempotencyKey());
            } catch (RuntimeException e) {
                String message = String.valueOf(e.getMessage());
                finish(c, ref, "FAILED", null, message);
                return failed(ref, message, false);
            }
            finish(c, ref, "DONE", answer, null);
            return done(ref, answer, false);
        }
        try (PreparedStatement ps = c.prepareStatement(read)) {
            bind(ps, 1, ref);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("the local call " + ref + " was neither claimed nor found");
                }
                if (!requestHash.equals(rs.getString("request_hash"))) {
                    return new CallOutcome.Answered(ref, ResultStatus.REJECTED, null, null,
                            "IDEMPOTENCY_PARAMETER_MISMATCH", "the key " + ref.idempotencyKey() + " was first asked "
                            + "for with other arguments; the method was not called", 0, true);
                }
                return switch (rs.getString("state")) {
                    case "DONE" -> done(ref, rs.getString("answer"), true);
                    case "FAILED" -> failed(ref, rs.getString("error_message"), true);
                    case "RUNNING" -> {
                        // the lock is ours, so the session that claimed the call is gone: its outcome is not known
                        update(c, toReview, ref, null);
                        log.warn("local call {} was claimed by a session that ended before its answer was written: "
                                + "held for review", ref);
                        yield new CallOutcome.Pending(ref, "NEEDS_REVIEW");
                    }
                    default -> new CallOutcome.Pending(ref, "NEEDS_REVIEW");
                };
            }
        }
    }

    /** Writes the method's answer; an answer that cannot be written is still the effect's, and is returned. */
    private void finish(Connection c, CallRef ref, String state, String answer, String error) {
        try (PreparedStatement ps = c.prepareStatement(finish)) {
            ps.setString(1, state);
            ps.setString(2, answer);
            ps.setString(3, error);
            bind(ps, 4, ref);
            ps.executeUpdate();
        } catch (SQLException e) {
            log.error("local call {} ran but its answer could not be written; a re-run will hold it for review", ref, e);
        }
    }

    /** The calls held for review, oldest first. */
    public List<Held> inReview(int limit) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(inReview)) {
            ps.setString(1, tenantId);
            ps.setInt(2, limit);
            List<Held> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Held(new CallRef(tenantId, rs.getString(1), TOOL + ":" + rs.getString(2),
                            rs.getString(3)), rs.getTimestamp(4).toInstant()));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("the local calls in review could not be read: " + e.getMessage(), e);
        }
    }

    /**
     * A person's decision on a call held for review: {@code effectHappened} with the answer the method would have
     * given (asked again, the call answers it), or not (asked again, it answers {@code FAILED_FINAL}; a new call needs
     * a new key). Guarded: only a call in review moves.
     *
     * @return whether the call was in review and is resolved now
     */
    public boolean resolve(CallRef ref, boolean effectHappened, String answer, String by, String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("a resolution needs a reason");
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(resolve)) {
            ps.setString(1, effectHappened ? "DONE" : "FAILED");
            ps.setString(2, effectHappened ? answer : null);
            ps.setString(3, effectHappened ? null : "resolved by " + by + ": " + reason);
            ps.setString(4, by);
            ps.setString(5, reason);
            bind(ps, 6, ref);
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new IllegalStateException("the local call " + ref + " could not be resolved: " + e.getMessage(), e);
        }
    }

    /** A call held for review: which, and since when it was claimed. */
    public record Held(CallRef ref, Instant claimedAt) {
    }

    private static CallOutcome done(CallRef ref, String answer, boolean replayed) {
        return new CallOutcome.Answered(ref, ResultStatus.COMMITTED, answerNode(answer), null, null, null, 0,
                replayed);
    }

    private static CallOutcome failed(CallRef ref, String message, boolean replayed) {
        return new CallOutcome.Answered(ref, ResultStatus.FAILED_FINAL, null, null, "TOOL_ERROR", message, 0,
                replayed);
    }

    /** The method's answer as the model reads it: its JSON when it is JSON, else its text. */
    private static JsonNode answerNode(String answer) {
        if (answer == null) {
            return null;
        }
        try {
            return CODEC.parse(answer.getBytes(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException notJson) {
            return JsonNodeFactory.instance.stringNode(answer);
        }
    }

    private int update(Connection c, String sql, CallRef ref, String requestHash) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int next = bind(ps, 1, ref);
            if (requestHash != null) {
                ps.setString(next, requestHash);
            }
            return ps.executeUpdate();
        }
    }

    /** Binds (tenant, conversation, name, key) from {@code at}; returns the next index. */
    private static int bind(PreparedStatement ps, int at, CallRef ref) throws SQLException {
        ps.setString(at, ref.tenantId());
        ps.setString(at + 1, ref.taskId());
        ps.setString(at + 2, ref.stepId().substring(TOOL.length() + 1));
        ps.setString(at + 3, ref.idempotencyKey());
        return at + 4;
    }

    private static boolean tryLock(Connection c, long key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private static void unlock(Connection c, long key) {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, key);
            ps.execute();
        } catch (SQLException e) {
            // a pooled session keeping the lock would make every later call of this key wait: drop the session
            log.error("could not release the advisory lock of a local call; closing its connection", e);
            try {
                c.abort(Runnable::run);
            } catch (SQLException ignored) {
                // closed either way
            }
        }
    }

    /** The advisory lock of a call: 64 bits of its row's key (a collision only makes two calls wait for each other). */
    static long lockKey(CallRef ref) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (String part : List.of("toolonce-local-call", ref.tenantId(), ref.taskId(), ref.stepId(),
                    ref.idempotencyKey())) {
                byte[] b = part.getBytes(StandardCharsets.UTF_8);
                md.update((byte) (b.length >>> 24));
                md.update((byte) (b.length >>> 16));
                md.update((byte) (b.length >>> 8));
                md.update((byte) b.length);
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
