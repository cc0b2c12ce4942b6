package dev.toolonce.executor.ledger;

import dev.toolonce.jdbc.SqlNames;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code dead_letter_replay}: one row per dead-lettered record an operator sent back to its topic (docs/operations.md
 * §4), written after the broker acknowledged the replayed record. Append-only.
 */
public final class DeadLetterReplayStore {
    /** One replay: where the record was, whose it claims to be, where it went, who sent it and why. */
    public record Replay(String dlqTopic, int dlqPartition, long dlqOffset, String errorCode, String tenantId,
                         String messageId, String toTopic, int toPartition, long toOffset, String principal,
                         String reason) {
    }

    private static final String RECORD = """
            INSERT INTO %s.dead_letter_replay (dlq_topic, dlq_partition, dlq_offset, error_code, tenant_id, message_id,
                                               to_topic, to_partition, to_offset, principal, reason)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """;
    private static final String LIST = """
            SELECT id, dlq_topic, dlq_partition, dlq_offset, error_code, tenant_id, message_id, to_topic, to_partition,
                   to_offset, principal, reason, at::text AS at
              FROM %s.dead_letter_replay
             WHERE CAST(? AS text[]) IS NULL OR tenant_id = ANY(CAST(? AS text[]))
             ORDER BY id DESC LIMIT ?
            """;
    private static final String OF_RECORD = """
            SELECT id, to_topic, to_partition, to_offset, principal, reason, at::text AS at FROM %s.dead_letter_replay
             WHERE dlq_topic = ? AND dlq_partition = ? AND dlq_offset = ? ORDER BY id
            """;

    private final JdbcTemplate jdbc;
    private final String record;
    private final String list;
    private final String ofRecord;

    public DeadLetterReplayStore(JdbcTemplate jdbc, String schema) {
        this.jdbc = jdbc;
        String s = SqlNames.schema(schema);
        this.record = RECORD.formatted(s);
        this.list = LIST.formatted(s);
        this.ofRecord = OF_RECORD.formatted(s);
    }

    public void record(Replay r) {
        jdbc.update(record, r.dlqTopic(), r.dlqPartition(), r.dlqOffset(), r.errorCode(), r.tenantId(), r.messageId(),
                r.toTopic(), r.toPartition(), r.toOffset(), r.principal(), r.reason());
    }

    /**
     * The latest {@code limit} replays, newest first.
     *
     * @param tenants only replays of records of these tenants; null for every tenant (and records of no tenant)
     */
    public List<Map<String, Object>> list(String[] tenants, int limit) {
        return jdbc.queryForList(list, tenants, tenants, limit);
    }

    /** Every replay of one dead-lettered record, oldest first. */
    public List<Map<String, Object>> of(String topic, int partition, long offset) {
        return jdbc.queryForList(ofRecord, topic, partition, offset);
    }
}
