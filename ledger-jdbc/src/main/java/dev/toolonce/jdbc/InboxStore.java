package dev.toolonce.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
    /**
     * {@link #INSERT} for a whole batch in one statement, in the batch's order; the ids it returns are the ones
     * recorded now. Of two rows with the same id in one batch, the first is inserted and the second conflicts with
     * it, as it would in two statements.
     */
    private static final String INSERT_ALL = """
            INSERT INTO %s.inbox_message (consumer_group, message_id, payload_hash, topic, kafka_partition, kafka_offset)
            SELECT ?, m.message_id, m.payload_hash, m.topic, m.kafka_partition, m.kafka_offset
              FROM unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::bigint[]) WITH ORDINALITY
                   AS m (message_id, payload_hash, topic, kafka_partition, kafka_offset, n)
             ORDER BY m.n
            ON CONFLICT (consumer_group, message_id) DO NOTHING
            RETURNING message_id
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
    private final String insertAll;
    private final String hashOf;
    private final String purge;

    public InboxStore(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        String s = SqlNames.schema(schema);
        this.insert = INSERT.formatted(s);
        this.insertAll = INSERT_ALL.formatted(s);
        this.hashOf = HASH_OF.formatted(s);
        this.purge = PURGE.formatted(s);
    }

    /** Records a message in the caller's transaction and says whether it was seen before. */
    public Seen record(String group, String messageId, String payloadHash, String topic, int partition, long offset) {
        int inserted = jdbc.update(insert, group, messageId, payloadHash, topic, partition, offset);
        return inserted == 1 ? Seen.NEW : seenBefore(group, messageId, payloadHash);
    }

    /** One message of a batch for {@link #recordAll}: its id, payload hash and where it was read. */
    public record Message(String messageId, String payloadHash, String topic, int partition, long offset) {
    }

    /**
     * Records a batch of messages in the caller's transaction with one insert, and says of each, in order, what
     * {@link #record} would have said had they been recorded one after the other: only the ids seen before (or
     * earlier in the batch) cost a read of their hash.
     */
    public List<Seen> recordAll(String group, List<Message> messages) {
        if (messages.isEmpty()) {
            return List.of();
        }
        Set<String> recorded = new HashSet<>(jdbc.query(con -> {
            var ps = con.prepareStatement(insertAll);
            ps.setString(1, group);
            ps.setArray(2, con.createArrayOf("text", messages.stream().map(Message::messageId).toArray()));
            ps.setArray(3, con.createArrayOf("text", messages.stream().map(Message::payloadHash).toArray()));
            ps.setArray(4, con.createArrayOf("text", messages.stream().map(Message::topic).toArray()));
            ps.setArray(5, con.createArrayOf("int4", messages.stream().map(Message::partition).toArray()));
            ps.setArray(6, con.createArrayOf("int8", messages.stream().map(Message::offset).toArray()));
            return ps;
        }, (rs, i) -> rs.getString(1)));
        List<Seen> seen = new ArrayList<>(messages.size());
        for (Message m : messages) {
            // remove: a second message of the same id in the batch was not the one recorded
            seen.add(recorded.remove(m.messageId()) ? Seen.NEW : seenBefore(group, m.messageId(), m.payloadHash()));
        }
        return seen;
    }

    private Seen seenBefore(String group, String messageId, String payloadHash) {
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
