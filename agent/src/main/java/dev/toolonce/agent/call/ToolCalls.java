package dev.toolonce.agent.call;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.agent.results.ResultHandler;
import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.hash.RequestHasher;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The awaitable call (docs/agent-calls.md §2): {@link #call(ToolIntent)} asks for a tool call through the agent's
 * outbox, as {@link IntentPublisher} does, and gives a future of its answer.
 *
 * <ul>
 *   <li><b>Asked for once per key.</b> In one transaction, the call's {@code agent_step} row is read and, only when
 *       there is none, the step and its intent are written. A key asked for before (a turn re-run after a crash, a
 *       second caller) publishes nothing: it is answered from the row, at once when the row holds an answer, else
 *       when the first request's answer arrives — {@code replayed: true} either way. The same key with other
 *       arguments is refused here as the executor would refuse it ({@code IDEMPOTENCY_PARAMETER_MISMATCH}), without
 *       an intent. Two callers racing on a new key may both publish: the executor makes one effect and answers the
 *       second with the first's result.</li>
 *   <li><b>Answered through the database.</b> A wait ends when the call's row holds a final status ({@link
 *       CallOutcome#FINAL}), whichever instance of the application applied the result: one statement every {@code
 *       pollEvery} reads the rows of every call waited for, and the result consumer of this instance ({@link
 *       #resultHandler()}) wakes that poll as soon as its transaction commits a result someone here waits for.
 *       {@code NEEDS_REVIEW} does not end a wait: a person resolves it, and the resolution is the answer.</li>
 *   <li><b>Bounded waits.</b> {@link #call(ToolIntent, Duration)} and {@link #await(CallRef, Duration)} return
 *       {@link CallOutcome.Pending} when the time is up; the call goes on and can be awaited again.</li>
 * </ul>
 *
 * <p>Thread-safe; {@link #close()} stops the poll and cancels the waits still open (not the calls).
 */
public final class ToolCalls implements AutoCloseable {
    /** The step id of a call asked for outside a planned task, e.g. by a model's tool-calling loop. */
    public static final String CALL_STEP = "call";

    private static final Logger log = LoggerFactory.getLogger(ToolCalls.class);
    private static final String FIND = """
            SELECT status, call_version, result, external_object_id, error_code, error_message, request_hash
              FROM %s.agent_step WHERE tenant_id = ? AND task_id = ? AND step_id = ? AND idempotency_key = ?
            """;
    /** The rows of every call waited for that hold an answer: one statement per poll, whatever their number. */
    private static final String ANSWERED = """
            SELECT s.tenant_id, s.task_id, s.step_id, s.idempotency_key, s.status, s.call_version, s.result,
                   s.external_object_id, s.error_code, s.error_message, s.request_hash
              FROM unnest(?::text[], ?::text[], ?::text[], ?::text[]) AS w (tenant_id, task_id, step_id, idempotency_key)
              JOIN %s.agent_step s USING (tenant_id, task_id, step_id, idempotency_key)
             WHERE s.status = ANY(?::text[])
            """;

    private final JdbcTemplate jdbc;
    private final DataSource dataSource;
    private final TransactionTemplate tx;
    private final IntentPublisher publisher;
    private final String find;
    private final String answered;
    private final RequestHasher hasher = new RequestHasher();
    private final EventCodec codec = new EventCodec();
    /** The open waits by call. */
    private final Map<CallRef, Set<Wait>> waits = new ConcurrentHashMap<>();
    private final ScheduledExecutorService poller;
    private final AtomicBoolean wakeQueued = new AtomicBoolean();

    /**
     * @param dataSource the agent's database, the one {@code publisher} writes to
     * @param tx         transactions on {@code dataSource}
     * @param publisher  writes the step and its intent
     * @param schema     the agent's schema
     * @param pollEvery  how often the rows of open waits are read (a result applied by another instance is seen
     *                   within this; one applied here is seen at once)
     */
    public ToolCalls(DataSource dataSource, TransactionTemplate tx, IntentPublisher publisher, String schema,
                     Duration pollEvery) {
        if (pollEvery.isNegative() || pollEvery.isZero()) {
            throw new IllegalArgumentException("pollEvery must be positive (is " + pollEvery + ")");
        }
        this.dataSource = dataSource;
        this.jdbc = new JdbcTemplate(dataSource);
        this.tx = tx;
        this.publisher = publisher;
        this.find = FIND.formatted(schema);
        this.answered = ANSWERED.formatted(schema);
        this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "toolonce-call-waits");
            t.setDaemon(true);
            return t;
        });
        poller.scheduleWithFixedDelay(this::pollSafely, pollEvery.toMillis(), pollEvery.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * An intent for a call of a free-form loop: the conversation's id as its task, {@link #CALL_STEP} as its step.
     * The key comes from {@link CallKeys} or {@link ConversationKeys}.
     */
    public static ToolIntent intent(String tenantId, String conversationId, String tool, String operation,
                                    String idempotencyKey, tools.jackson.databind.JsonNode arguments) {
        return new ToolIntent(null, tenantId, tool, operation, idempotencyKey, arguments, conversationId, CALL_STEP,
                null);
    }

    /**
     * Asks for the call, unless its key was asked for before, and gives its answer when it comes.
     *
     * @throws IllegalArgumentException when the intent names no task or step, or would be refused by the contract
     *                                  (nothing is written then)
     */
    public CompletableFuture<CallOutcome> call(ToolIntent intent) {
        CallRef ref = CallRef.of(intent);
        String hash = hasher.hash(new CallScope(intent.tenantId(), intent.tool(), intent.operation(),
                intent.idempotencyKey()), intent.arguments()).value();
        // Registered before the row is read, so that an answer committed in between still wakes it.
        Wait wait = register(ref);
        CompletableFuture<CallOutcome> future = wait.future;
        Row existing;
        try {
            existing = tx.execute(s -> {
                Optional<Row> row = read(ref);
                if (row.isEmpty()) {
                    publisher.publish(dataSource, intent);
                    wait.published = true;
                }
                return row.orElse(null);
            });
        } catch (RuntimeException e) {
            future.cancel(false);
            throw e;
        }
        if (existing == null) {
            return future;
        } else if (existing.requestHash() != null && !existing.requestHash().equals(hash)) {
            future.complete(CallOutcome.Answered.refusedAsAskedBefore(ref, "IDEMPOTENCY_PARAMETER_MISMATCH",
                    "the key " + ref.idempotencyKey() + " was first asked for with other arguments ("
                    + existing.requestHash() + ", not " + hash + "); nothing was sent"));
        } else if (existing.isFinal()) {
            future.complete(existing.outcome(ref, codec).asReplayed());
        }
        return future;
    }

    /**
     * {@link #call(ToolIntent)}, waiting at most {@code wait}: the answer, or {@link CallOutcome.Pending} with the
     * call's current status.
     */
    public CallOutcome call(ToolIntent intent, Duration wait) {
        return bounded(CallRef.of(intent), call(intent), wait);
    }

    /**
     * Waits for a call asked for before, by its row: completes with its answer, at once if it has one.
     *
     * @throws IllegalArgumentException when no call was asked for under {@code ref}
     */
    public CompletableFuture<CallOutcome> await(CallRef ref) {
        Wait wait = register(ref);
        if (settle(wait, ref, false).isEmpty()) {
            wait.future.cancel(false);
            throw new IllegalArgumentException("no call was asked for as " + ref);
        }
        return wait.future;
    }

    /**
     * Waits for a call whose row may not exist yet: one that something else will ask for, e.g. a task step held for an
     * operator's approval (docs/agent-calls.md §7). Completes when a row under {@code ref} holds an answer.
     *
     * @param askedHere whether this caller asked for the call (its answer is then not {@code replayed})
     */
    public CompletableFuture<CallOutcome> expect(CallRef ref, boolean askedHere) {
        Wait wait = register(ref);
        settle(wait, ref, askedHere);
        return wait.future;
    }

    /**
     * Reads the call's row once, after its wait is registered (so an answer committed in between still wakes it):
     * completes the wait when the row holds an answer.
     *
     * @return the row; empty when none exists yet
     */
    private Optional<Row> settle(Wait wait, CallRef ref, boolean askedHere) {
        wait.published = askedHere;
        Optional<Row> row = read(ref);
        row.filter(Row::isFinal).ifPresent(r -> wait.future.complete(askedHere ? r.outcome(ref, codec)
                : r.outcome(ref, codec).asReplayed()));
        return row;
    }

    /** {@link #await(CallRef)}, waiting at most {@code wait}. */
    public CallOutcome await(CallRef ref, Duration wait) {
        return bounded(ref, await(ref), wait);
    }

    /** The call's state now: its answer, a pending call, or empty when none was asked for as {@code ref}. */
    public Optional<CallOutcome> find(CallRef ref) {
        return read(ref).map(row -> row.isFinal() ? row.outcome(ref, codec).asReplayed()
                : new CallOutcome.Pending(ref, row.status()));
    }

    /**
     * The hook for this instance's result consumer: after the transaction that applied a result commits, the waits for
     * that call read its row at once instead of at the next poll.
     */
    public ResultHandler resultHandler() {
        return new ResultHandler() {
            @Override
            public void onResult(ToolResult result) {
                onResult(result, true);
            }

            @Override
            public void onResult(ToolResult result, boolean applied) {
                if (!applied || result.taskId() == null || result.stepId() == null
                        || !CallOutcome.FINAL.contains(result.status().name())
                        || !waits.containsKey(new CallRef(result.tenantId(), result.taskId(), result.stepId(),
                                result.idempotencyKey()))) {
                    return;
                }
                if (TransactionSynchronizationManager.isSynchronizationActive()) {
                    TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                        @Override
                        public void afterCommit() {
                            wake();
                        }
                    });
                } else {
                    wake();
                }
            }
        };
    }

    /** How many waits are open. */
    public int waiting() {
        return waits.values().stream().mapToInt(Set::size).sum();
    }

    /** Stops the poll; the waits still open are cancelled (their calls go on and can be awaited elsewhere). */
    @Override
    public void close() {
        poller.shutdownNow();
        waits.values().forEach(open -> open.forEach(w -> w.future.cancel(false)));
        waits.clear();
    }

    private CallOutcome bounded(CallRef ref, CompletableFuture<CallOutcome> future, Duration wait) {
        try {
            return future.get(Math.max(0, wait.toMillis()), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(false);
            return future.isDone() && !future.isCancelled() ? future.join()
                    : find(ref).orElseThrow(() -> new IllegalStateException("the call's row is gone: " + ref));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(false);
            throw new CancellationException("interrupted while waiting for " + ref);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    private Wait register(CallRef ref) {
        Wait wait = new Wait();
        waits.computeIfAbsent(ref, r -> ConcurrentHashMap.newKeySet()).add(wait);
        wait.future.whenComplete((v, e) -> waits.computeIfPresent(ref, (r, open) -> {
            open.remove(wait);
            return open.isEmpty() ? null : open;
        }));
        return wait;
    }

    /** One caller's wait; {@code published} says whether its call wrote the intent itself. */
    private static final class Wait {
        final CompletableFuture<CallOutcome> future = new CompletableFuture<>();
        volatile boolean published;
    }

    private void wake() {
        if (wakeQueued.compareAndSet(false, true)) {
            try {
                poller.execute(() -> {
                    wakeQueued.set(false);
                    pollSafely();
                });
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                wakeQueued.set(false);
            }
        }
    }

    private void pollSafely() {
        try {
            poll();
        } catch (RuntimeException e) {
            log.warn("reading the rows of {} awaited call(s) failed; the next poll tries again: {}", waits.size(),
                    e.toString());
        }
    }

    /** Completes every open wait whose call's row holds an answer. */
    void poll() {
        List<CallRef> refs = new ArrayList<>(waits.keySet());
        if (refs.isEmpty()) {
            return;
        }
        Map<CallRef, CallOutcome.Answered> answers = new java.util.HashMap<>();
        jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement(answered);
            ps.setArray(1, con.createArrayOf("text", refs.stream().map(CallRef::tenantId).toArray()));
            ps.setArray(2, con.createArrayOf("text", refs.stream().map(CallRef::taskId).toArray()));
            ps.setArray(3, con.createArrayOf("text", refs.stream().map(CallRef::stepId).toArray()));
            ps.setArray(4, con.createArrayOf("text", refs.stream().map(CallRef::idempotencyKey).toArray()));
            ps.setArray(5, con.createArrayOf("text", CallOutcome.FINAL.toArray()));
            return ps;
        }, (ResultSet rs) -> {
            CallRef ref = new CallRef(rs.getString("tenant_id"), rs.getString("task_id"), rs.getString("step_id"),
                    rs.getString("idempotency_key"));
            answers.put(ref, Row.of(rs).outcome(ref, codec));
        });
        answers.forEach((ref, answer) -> {
            Set<Wait> open = waits.get(ref);
            if (open != null) {
                open.forEach(w -> w.future.complete(w.published ? answer : answer.asReplayed()));
            }
        });
    }

    private Optional<Row> read(CallRef ref) {
        return jdbc.query(find, rs -> rs.next() ? Optional.of(Row.of(rs)) : Optional.<Row>empty(), ref.tenantId(),
                ref.taskId(), ref.stepId(), ref.idempotencyKey());
    }

    /** A call's {@code agent_step} row, as far as its answer goes. */
    private record Row(String status, long callVersion, String result, String externalObjectId, String errorCode,
                       String errorMessage, String requestHash) {
        static Row of(ResultSet rs) throws SQLException {
            return new Row(rs.getString("status"), rs.getLong("call_version"), rs.getString("result"),
                    rs.getString("external_object_id"), rs.getString("error_code"), rs.getString("error_message"),
                    rs.getString("request_hash"));
        }

        boolean isFinal() {
            return CallOutcome.FINAL.contains(status);
        }

        CallOutcome.Answered outcome(CallRef ref, EventCodec codec) {
            return new CallOutcome.Answered(ref, ResultStatus.valueOf(status),
                    result == null ? null : codec.parse(result.getBytes(StandardCharsets.UTF_8)), externalObjectId,
                    errorCode, errorMessage, callVersion, false);
        }
    }
}
