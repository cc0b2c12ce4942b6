package dev.toolonce.relay.publish;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Optional;

import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Reads an {@link OutboxChange} out of a Debezium change event of one outbox table. Anything
 * else (heartbeats, tombstones, other tables, updates and deletes) reads as empty: the relay
 * only marks it processed. Snapshot reads ({@code op=r}) count as inserts, should an engine
 * ever be configured to snapshot (the relay snapshots by itself: {@code snapshot.OutboxSnapshot}).
 * Pure; no I/O.
 */
public final class OutboxRowReader {

    private final String schema;
    private final String table;

    /**
     * @param schema the outbox table's schema
     * @param table  the outbox table's name without schema
     */
    public OutboxRowReader(String schema, String table) {
        this.schema = schema;
        this.table = table;
    }

    /**
     * @param record a record handed over by the engine; may be a tombstone (null value)
     * @return the inserted row and its commit time, or empty when the record is not an insert
     *         into this outbox table
     */
    public Optional<OutboxChange> read(SourceRecord record) {
        if (!(record.value() instanceof Struct value) || value.schema().field("op") == null) {
            return Optional.empty();
        }
        String op = value.getString("op");
        Struct source = value.schema().field("source") == null ? null : value.getStruct("source");
        Struct after = value.schema().field("after") == null ? null : value.getStruct("after");
        if (!("c".equals(op) || "r".equals(op)) || source == null || after == null
                || !schema.equals(source.getString("schema")) || !table.equals(source.getString("table"))) {
            return Optional.empty();
        }
        return Optional.of(new OutboxChange(row(after), commitMicros(source)));
    }

    static OutboxRow row(Struct after) {
        return new OutboxRow(
                text(after, "id"),
                text(after, "aggregate_type"),
                text(after, "aggregate_id"),
                text(after, "event_type"),
                text(after, "source"),
                text(after, "subject"),
                text(after, "payload"),
                text(after, "traceparent"),
                after.schema().field("signature") == null ? null : text(after, "signature"),
                instant(after.get("created_at")));
    }

    static long commitMicros(Struct source) {
        if (source.schema().field("ts_us") != null && source.get("ts_us") != null) {
            return source.getInt64("ts_us");
        }
        return source.getInt64("ts_ms") * 1000L;
    }

    private static String text(Struct struct, String field) {
        Object value = struct.get(field);
        return value == null ? null : value.toString();
    }

    /** Debezium renders timestamptz as an ISO-8601 string (io.debezium.time.ZonedTimestamp). */
    static Instant instant(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Number micros) {
            return Instant.EPOCH.plusNanos(micros.longValue() * 1000L);
        }
        return OffsetDateTime.parse(value.toString()).toInstant();
    }
}
