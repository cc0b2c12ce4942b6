package dev.toolonce.agent.call;

import dev.toolonce.schemas.EventCodec;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * An application's own tool method run effectively once (docs/agent-calls.md §8): the method runs in the application,
 * not behind the executor, so its record is a {@code local_call} row of the agent schema ({@link LocalCallStore}),
 * keyed like a model's call to a catalogue tool (§3) under the pseudo-tool {@value #TOOL} and the method's name.
 *
 * <ol>
 *   <li><b>Claimed before it runs.</b> The row is inserted ({@code RUNNING}) and committed before the method is called,
 *       by a session that holds the call's advisory lock ({@link AdvisoryLocks}) until the answer is written
 *       ({@code DONE}); an exception the method throws is written as {@code FAILED}: the effect may or may not have
 *       happened, so the key never runs it again.</li>
 *   <li><b>Asked again, never run again.</b> Under a key whose row exists the method is not called: a {@code DONE} or
 *       {@code FAILED} row is its answer ({@code replayed: true}); another request hash under the key is refused
 *       ({@code IDEMPOTENCY_PARAMETER_MISMATCH}).</li>
 *   <li><b>A claim whose session is gone is a review.</b> A {@code RUNNING} row whose lock is free was claimed by a
 *       session that ended mid-call (the process was killed, or lost its connection): whether the effect happened is
 *       not known, so it becomes {@code NEEDS_REVIEW} — when the key is asked again, or when {@link #inReview} looks —
 *       and a person {@link #resolve}s it. An answer that arrives late (the runner lived, its session did not) is
 *       still written, through a new connection. A {@code RUNNING} row whose lock is held runs now elsewhere: the
 *       caller waits for it at most {@code wait}, then is told it is pending.</li>
 * </ol>
 *
 * <p>At most one effect per key, or a review; exactly one when the method hands its key (given to {@code method}) to
 * an API that honours idempotency keys. The method runs while its caller holds a pooled connection (the lock's
 * session): size the pool for the calls that run at once, plus what the methods themselves take from it.
 * Thread-safe.
 */
public final class LocalCalls {
    /** The pseudo-tool whose operation is the method's name, in the call's key and request hash. */
    public static final String TOOL = "local";

    private static final Logger log = LoggerFactory.getLogger(LocalCalls.class);
    private static final EventCodec CODEC = new EventCodec();
    private static final Duration POLL = Duration.ofMillis(50);

    private final DataSource dataSource;
    private final LocalCallStore store;
    private final String tenantId;
    private final Duration wait;

    /**
     * @param dataSource the agent's database: a connection pool with one database session per connection
     * @param schema     the agent's schema
     * @param tenantId   the tenant every call is made for
     * @param wait       how long a call waits for the same call running elsewhere before it is told it is pending
     */
    public LocalCalls(DataSource dataSource, String schema, String tenantId, Duration wait) {
        this.dataSource = dataSource;
        this.store = new LocalCallStore(schema);
        this.tenantId = tenantId;
        this.wait = wait;
    }

    public String tenantId() {
        return tenantId;
    }

    /** A call held for review: which, and since when it was claimed. */
    public record Held(LocalCallRef ref, Instant claimedAt) {
    }

    /**
     * Runs a method a model asked for in a turn of a conversation, once per key, and answers as the model should read
     * it ({@link ModelCalls#answer}). Arguments that are not a JSON object, or whose names or numbers the contract
     * refuses (as for a catalogue tool's key), are answered as a refusal and the method is not called.
     *
     * @param name   the method's name, as the model calls it
     * @param method the method: given its key, returns its answer
     */
    public String call(String name, String arguments, TurnKeys turn, UnaryOperator<String> method) {
        String key;
        String hash;
        try {
            JsonNode args = ModelCalls.arguments(arguments);
            key = turn.next(TOOL, name, args);
            hash = CallKeys.requestHash(tenantId, TOOL, name, args);
        } catch (IllegalArgumentException e) { // InvalidArgumentsException among them
            return ModelCalls.refusal("INVALID_ARGUMENTS", e.getMessage());
        }
        return ModelCalls.answer(run(turn.conversationId(), name, key, hash, method));
    }

    /**
     * Runs {@code method} once under {@code key} (see the class's description); a business key is as good as a
     * derived one here.
     *
     * @param requestHash what makes a call the same request ({@link CallKeys#requestHash})
     * @return {@code COMMITTED} with the method's answer, {@code FAILED_FINAL TOOL_ERROR} with its exception's message,
     *         {@code REJECTED IDEMPOTENCY_PARAMETER_MISMATCH}; or pending, {@code NEEDS_REVIEW} or {@code PENDING}
     * @throws IllegalStateException when the database cannot be reached (nothing was run)
     */
    public CallOutcome run(String conversationId, String name, String key, String requestHash,
                           UnaryOperator<String> method) {
        LocalCallRef ref = new LocalCallRef(tenantId, conversationId, name, key);
        long lock = AdvisoryLocks.of(ref);
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(true);
                if (AdvisoryLocks.tryLock(c, lock)) {
                    try {
                        return runLocked(c, ref, requestHash, method);
                    } finally {
                        AdvisoryLocks.unlock(c, lock);
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException("the local call " + ref + " could not be read or claimed: "
                        + e.getMessage(), e);
            }
            if (System.nanoTime() - deadline >= 0 || !pause()) {
                return new CallOutcome.Pending(ref.asCallRef(), "PENDING"); // it runs elsewhere now
            }
        }
    }

    private CallOutcome runLocked(Connection c, LocalCallRef ref, String requestHash, UnaryOperator<String> method)
            throws SQLException {
        if (store.claim(c, ref, requestHash)) {
            return runClaimed(c, ref, method);
        }
        LocalCallStore.Row row = store.find(c, ref).orElseThrow(() ->
                new IllegalStateException("the local call " + ref + " was neither claimed nor found"));
        CallRef out = ref.asCallRef();
        if (!requestHash.equals(row.requestHash())) {
            return CallOutcome.Answered.refusedAsAskedBefore(out, "IDEMPOTENCY_PARAMETER_MISMATCH", "the key "
                    + ref.idempotencyKey() + " was first asked for with other arguments; the method was not called");
        }
        return switch (row.state()) {
            case DONE -> CallOutcome.Answered.committed(out, answerNode(row.answer()), true);
            case FAILED -> CallOutcome.Answered.failed(out, "TOOL_ERROR", row.errorMessage(), true);
            case RUNNING -> {
                // the lock is ours, so the session that claimed the call is gone: its outcome is not known
                toReview(c, ref);
                yield new CallOutcome.Pending(out, "NEEDS_REVIEW");
            }
            case NEEDS_REVIEW -> new CallOutcome.Pending(out, "NEEDS_REVIEW");
        };
    }

    private CallOutcome runClaimed(Connection c, LocalCallRef ref, UnaryOperator<String> method) {
        String answer;
        try {
            answer = method.apply(ref.idempotencyKey());
        } catch (RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            record(c, ref, LocalCallState.FAILED, null, message);
            return CallOutcome.Answered.failed(ref.asCallRef(), "TOOL_ERROR", message, false);
        }
        record(c, ref, LocalCallState.DONE, answer, null);
        return CallOutcome.Answered.committed(ref.asCallRef(), answerNode(answer), false);
    }

    /**
     * Writes what the method did. Its session may have ended while the method ran (then a caller may have moved the
     * call to review already): the write is tried again through a new connection, and an answer that cannot be
     * written at all is logged with the call, for the person who reviews it.
     */
    private void record(Connection c, LocalCallRef ref, LocalCallState to, String answer, String error) {
        try {
            store.move(c, ref, to, answer, error);
            return;
        } catch (SQLException sessionGone) {
            log.warn("local call {}: its session ended while the method ran ({}); writing its outcome anew", ref,
                    sessionGone.getMessage());
        }
        try (Connection fresh = dataSource.getConnection()) {
            fresh.setAutoCommit(true);
            if (!store.move(fresh, ref, to, answer, error)) {
                log.warn("local call {} was resolved before its late outcome {} ({}) arrived; kept the resolution",
                        ref, to, answer != null ? answer : error);
            }
        } catch (SQLException e) {
            log.error("local call {} ran but its outcome could not be written: {} {}; a person reviews it", ref, to,
                    answer != null ? answer : error, e);
        }
    }

    private void toReview(Connection c, LocalCallRef ref) throws SQLException {
        if (store.move(c, ref, LocalCallState.NEEDS_REVIEW, null, null)) {
            log.warn("local call {} was claimed by a session that ended before its outcome was written: held for "
                    + "review", ref);
        }
    }

    /**
     * The tenant's calls held for review, oldest first. Looks first for {@code RUNNING} calls whose session is gone
     * (their lock is free) and holds them for review, so that a call whose key is never asked again is seen too.
     */
    public List<Held> inReview(int limit) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            for (LocalCallRef running : store.running(c, tenantId, limit)) {
                long lock = AdvisoryLocks.of(running);
                if (AdvisoryLocks.tryLock(c, lock)) {
                    try {
                        toReview(c, running);
                    } finally {
                        AdvisoryLocks.unlock(c, lock);
                    }
                }
            }
            return store.inReview(c, tenantId, limit);
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
     * @throws IllegalArgumentException without a reason
     */
    public boolean resolve(LocalCallRef ref, boolean effectHappened, String answer, String by, String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("a resolution needs a reason");
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            return effectHappened
                    ? store.resolve(c, ref, LocalCallState.DONE, answer, null, by, reason)
                    : store.resolve(c, ref, LocalCallState.FAILED, null, "resolved by " + by + ": " + reason, by,
                    reason);
        } catch (SQLException e) {
            throw new IllegalStateException("the local call " + ref + " could not be resolved: " + e.getMessage(), e);
        }
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

    /** Waits before asking again; false when interrupted. */
    private static boolean pause() {
        try {
            Thread.sleep(POLL.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
