package dev.toolonce.jdbc;

import java.time.Duration;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The inbox of an idempotent consumer (docs/protocol.md §14): {@code (consumer group, message id, payload hash)}
 * recorded in the transaction of the effect. Insert first; a conflict means "seen".
 */
public final class InboxStore {
    private static final String INSERT = """
            INSERT INTO %s.inbox_message (consumer_group, message_id, payload_hash, topic, kafka_partition, kafka_offset)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (consumer_group, message_id) DO NOTHING
            """;
    private static final String HASH_OF = """
            SELECT payload_hash FROM %s.inbox_message WHERE consumer_group = ? AND message_id = ?
            """;
    /**
     * The cutoff is a scalar subquery, computed once before the scan, so the index on {@code received_at} bounds the
     * scan; compared with a volatile expression directly, every row of the inbox was read on every purge.
     */
    private static final String PURGE = """
            DELETE FROM %1$s.inbox_message
             WHERE ctid IN (SELECT ctid FROM %1$s.inbox_message
                             WHERE received_at < (SELECT clock_timestamp() - make_interval(secs => ?)) LIMIT ?)
            """;

    /** What the inbox knew of a message. */
    public enum Seen {
        /** First time: apply the effect. */
        NEW,
        /** Same id, same payload: a redelivery, skip it. */
        DUPLICATE,
        /** Same id, different payload: answer {@code MESSAGE_ID_REUSED}, apply nothing. */
        REUSED
    }

    private final JdbcTemplate jdbc;
    private final String insert;
    private final String hashOf;
    private final String purge;

    public InboxStore(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        String s = SqlNames.schema(schema);
        this.insert = INSERT.formatted(s);
        this.hashOf = HASH_OF.formatted(s);
        this.purge = PURGE.formatted(s);
    }

    /** Records a message in the caller's transaction and says whether it was seen before. */
    public Seen record(String group, String messageId, String payloadHash, String topic, int partition, long offset) {
        int inserted = jdbc.update(insert, group, messageId, payloadHash, topic, partition, offset);
        if (inserted == 1) {
            return Seen.NEW;
        }
        List<String> hashes = jdbc.queryForList(hashOf, String.class, group, messageId);
        return hashes.equals(List.of(payloadHash)) ? Seen.DUPLICATE : Seen.REUSED;
    }

    /**
     * Forgets up to {@code limit} messages received longer than {@code retention} ago, of every consumer group
     * (docs/protocol.md §13). A message redelivered after that is new again, so {@code retention} must outlast every
     * redelivery of the consumed topics (the executor checks that at start-up, docs/protocol.md §13).
     *
     * @return how many rows went
     */
    public int purgeOlderThan(Duration retention, int limit) {
        return jdbc.update(purge, retention.toMillis() / 1000.0, limit);
    }
}
