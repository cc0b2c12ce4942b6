package dev.toolonce.jdbc;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Writes {@code <schema>.outbox_event} rows in the caller's transaction (docs/protocol.md §14). With a
 * Spring-managed DataSource the template joins the surrounding transaction; for a plain JDBC
 * {@link java.sql.Connection} wrap it with {@link org.springframework.jdbc.datasource.SingleConnectionDataSource}.
 */
public final class OutboxStore {
    /** Payloads are capped at write time so that the relay never meets a record it cannot publish. */
    public static final int MAX_PAYLOAD_BYTES = 1_048_576;

    private static final String INSERT = """
            INSERT INTO %s.outbox_event (id, aggregate_type, aggregate_id, event_type, source, subject, payload, traceparent,
                                          signature)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """;
    /**
     * Rows leave through the WAL when they commit; the rows themselves are only kept for inspection. The cutoff is a
     * scalar subquery, computed once, so the index on {@code created_at} bounds the scan (a volatile expression in
     * the filter made every purge read the whole outbox).
     */
    private static final String PURGE = """
            DELETE FROM %1$s.outbox_event
             WHERE id IN (SELECT id FROM %1$s.outbox_event
                           WHERE created_at < (SELECT clock_timestamp() - make_interval(secs => ?)) LIMIT ?)
            """;

    private final JdbcTemplate jdbc;
    private final String insert;
    private final String purge;

    public OutboxStore(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        String s = SqlNames.schema(schema);
        this.insert = INSERT.formatted(s);
        this.purge = PURGE.formatted(s);
    }

    /**
     * Appends events; not idempotent (each call writes new rows).
     *
     * @throws PayloadTooLargeException when a payload exceeds {@link #MAX_PAYLOAD_BYTES}
     */
    public void append(List<OutboxEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        events.forEach(OutboxStore::checkSize);
        jdbc.batchUpdate(insert, events, events.size(), (ps, e) -> {
            ps.setObject(1, e.id());
            ps.setString(2, e.topic());
            ps.setString(3, e.key());
            ps.setString(4, e.type());
            ps.setString(5, e.source());
            ps.setString(6, e.subject());
            ps.setString(7, e.payload());
            ps.setString(8, e.traceparent());
            ps.setString(9, e.signature());
        });
    }

    /** @see #append(List) */
    public void append(OutboxEvent event) {
        append(List.of(event));
    }

    /**
     * Deletes up to {@code limit} rows written longer than {@code keep} ago (docs/protocol.md §13). The relay reads
     * the WAL, not the table, so a row's fate on Kafka does not depend on it.
     *
     * @return how many rows went
     */
    public int purgeOlderThan(Duration keep, int limit) {
        return jdbc.update(purge, keep.toMillis() / 1000.0, limit);
    }

    private static void checkSize(OutboxEvent e) {
        int bytes = e.payload().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_PAYLOAD_BYTES) {
            throw new PayloadTooLargeException(e.id() + " payload is " + bytes + " bytes, the limit is " + MAX_PAYLOAD_BYTES);
        }
    }

    /** An event too large to relay; refused before it is written. */
    public static final class PayloadTooLargeException extends IllegalArgumentException {
        public PayloadTooLargeException(String message) {
            super(message);
        }
    }
}
