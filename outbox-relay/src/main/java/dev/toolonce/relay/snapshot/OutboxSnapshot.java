package dev.toolonce.relay.snapshot;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.toolonce.relay.config.RelayProperties.Source;
import dev.toolonce.relay.config.SourceConnections;
import dev.toolonce.relay.publish.OutboxChange;
import dev.toolonce.relay.publish.OutboxPublisher;
import dev.toolonce.relay.publish.OutboxRow;

/**
 * Publishes every row of a source's outbox table, for a slot that cannot deliver them: a new
 * slot, or one that was recreated or advanced (dropped, lost in a failover, older than its
 * publication). It runs after the slot exists and before the engine starts streaming from the
 * slot's own position, so each row was either committed before the slot (and is in this
 * snapshot, which is taken later) or after it (and comes from the slot): none is skipped, some
 * may be sent twice, with an unchanged {@code ce_id} that the consumers' inboxes absorb.
 *
 * <p>The rows are read in one read-only REPEATABLE READ transaction through a cursor and sent in
 * pages through the same publisher as the stream (dead-lettering included). The caller records
 * completion ({@link SnapshotMarkers}) only after this returned: a crash half-way means the next
 * start snapshots again.
 */
public final class OutboxSnapshot {

    private static final Logger log = LoggerFactory.getLogger(OutboxSnapshot.class);
    static final String SELECT_ALL = """
            SELECT id::text, aggregate_type, aggregate_id, event_type, source, subject, payload, traceparent, created_at,
                   to_jsonb(o) ->> 'signature'
              FROM %s o""";
    /** A page waits for every Kafka acknowledgement before the next is read; reads may block that long. */
    private static final int SOCKET_TIMEOUT_SECONDS = 300;

    private final Source source;
    private final OutboxPublisher publisher;
    private final int pageSize;

    /**
     * @param source    the source whose {@code table} is read
     * @param publisher sends each page and waits for its acknowledgements
     * @param pageSize  rows per page (the engine's {@code max-batch-size})
     */
    public OutboxSnapshot(Source source, OutboxPublisher publisher, int pageSize) {
        this.source = source;
        this.publisher = publisher;
        this.pageSize = pageSize;
    }

    /**
     * Publishes every row present now.
     *
     * @param stopping polled between pages; when it turns true the snapshot stops unfinished
     * @return the number of rows published, or empty when stopped before the end
     * @throws SQLException when the table cannot be read (the snapshot must be started over)
     * @throws dev.toolonce.relay.publish.RetryBatchException when Kafka did not acknowledge a page
     */
    public OptionalLong publishAll(BooleanSupplier stopping) throws SQLException, InterruptedException {
        long sent = 0;
        try (Connection c = SourceConnections.open(source, SOCKET_TIMEOUT_SECONDS)) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setReadOnly(true);
            try (Statement st = c.createStatement()) {
                st.setFetchSize(pageSize);
                try (ResultSet rs = st.executeQuery(SELECT_ALL.formatted(source.table()))) {
                    List<OutboxChange> page = new ArrayList<>(pageSize);
                    while (rs.next()) {
                        page.add(change(rs));
                        if (page.size() == pageSize) {
                            if (stopping.getAsBoolean()) {
                                return OptionalLong.empty();
                            }
                            sent += publish(page);
                        }
                    }
                    sent += publish(page);
                }
            } finally {
                c.rollback();
            }
        }
        return OptionalLong.of(sent);
    }

    private int publish(List<OutboxChange> page) throws InterruptedException {
        int n = page.size();
        if (n > 0) {
            publisher.publish(page, false);
            log.debug("Source '{}': snapshot published {} more rows of {}", source.name(), n, source.table());
            page.clear();
        }
        return n;
    }

    private static OutboxChange change(ResultSet rs) throws SQLException {
        Timestamp created = rs.getTimestamp(9);
        OutboxRow row = new OutboxRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8),
                rs.getString(10), created == null ? null : created.toInstant());
        return new OutboxChange(row, 0L);
    }
}
