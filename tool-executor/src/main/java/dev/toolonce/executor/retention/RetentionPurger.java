package dev.toolonce.executor.retention;

import dev.toolonce.executor.ledger.ToolCallRetention;
import dev.toolonce.jdbc.InboxStore;
import dev.toolonce.jdbc.OutboxStore;
import java.time.Duration;

/**
 * docs/protocol.md §13: one purge round, in batches, each through the store that owns the table — terminal calls by
 * the time they became terminal, leaving a tombstone, never a call of a task its agent reports open
 * ({@link ToolCallRetention#purgeTerminal}); inbox rows past retention ({@link InboxStore#purgeOlderThan}); relayed
 * outbox rows ({@link OutboxStore#purgeOlderThan}).
 */
public final class RetentionPurger {
    private final ToolCallRetention calls;
    private final InboxStore inbox;
    private final OutboxStore outbox;
    private final Duration retention;
    private final Duration outboxKeep;
    private final int batch;

    /**
     * @param calls      the ledger; {@code inbox} and {@code outbox} are the executor's, on the same database (each
     *                   round's statements run in the caller's transaction if any)
     * @param retention  how long terminal calls and inbox rows are kept
     * @param outboxKeep how long outbox rows are kept for inspection; they left through the WAL when they committed
     * @param batch      rows per table per round
     */
    public RetentionPurger(ToolCallRetention calls, InboxStore inbox, OutboxStore outbox, Duration retention,
                           Duration outboxKeep, int batch) {
        this.calls = calls;
        this.inbox = inbox;
        this.outbox = outbox;
        this.retention = retention;
        this.outboxKeep = outboxKeep;
        this.batch = batch;
    }

    /** One batch of each; returns how many rows went, so a caller can loop until it reaches 0. */
    public int purgeOnce() {
        return calls.purgeTerminal(retention, batch) + inbox.purgeOlderThan(retention, batch)
                + outbox.purgeOlderThan(outboxKeep, batch);
    }
}
