package dev.toolonce.relay.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/** Change events shaped like the ones Debezium's PostgreSQL connector emits for an outbox insert. */
class OutboxRowReaderTest {

    static final Schema ROW = SchemaBuilder.struct().optional()
            .field("id", Schema.STRING_SCHEMA)
            .field("aggregate_type", Schema.STRING_SCHEMA)
            .field("aggregate_id", Schema.STRING_SCHEMA)
            .field("event_type", Schema.STRING_SCHEMA)
            .field("source", Schema.STRING_SCHEMA)
            .field("subject", Schema.OPTIONAL_STRING_SCHEMA)
            .field("payload", Schema.STRING_SCHEMA)
            .field("traceparent", Schema.OPTIONAL_STRING_SCHEMA)
            .field("created_at", Schema.STRING_SCHEMA)
            .build();
    static final Schema SOURCE = SchemaBuilder.struct()
            .field("schema", Schema.STRING_SCHEMA)
            .field("table", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .field("ts_us", Schema.OPTIONAL_INT64_SCHEMA)
            .build();
    static final Schema ENVELOPE = SchemaBuilder.struct()
            .field("before", ROW)
            .field("after", ROW)
            .field("source", SOURCE)
            .field("op", Schema.STRING_SCHEMA)
            .build();

    final OutboxRowReader reader = new OutboxRowReader("executor", "outbox_event");

    static SourceRecord event(String op, String schema, String table, Long tsUs) {
        Struct after = new Struct(ROW)
                .put("id", "3f1c1c9e-0000-4000-8000-000000000001")
                .put("aggregate_type", "toolonce.tool-results")
                .put("aggregate_id", "acme/payments/charge/k")
                .put("event_type", "dev.toolonce.tool-result.v1")
                .put("source", "/toolonce/tool-executor")
                .put("subject", null)
                .put("payload", "{\"x\": \"ü\"}")
                .put("traceparent", "00-aa-bb-01")
                .put("created_at", "2026-11-30T08:00:00.123456Z");
        Struct source = new Struct(SOURCE).put("schema", schema).put("table", table)
                .put("ts_ms", 1_796_000_000_123L).put("ts_us", tsUs);
        Struct value = new Struct(ENVELOPE).put("after", after).put("source", source).put("op", op);
        return new SourceRecord(Map.of(), Map.of(), "executor.executor.outbox_event", null, null, ENVELOPE, value);
    }

    @Test
    void readsAnInsertWithItsCommitTime() {
        OutboxChange change = reader.read(event("c", "executor", "outbox_event", 1_796_000_000_123_456L)).orElseThrow();
        assertThat(change.commitMicros()).isEqualTo(1_796_000_000_123_456L);
        OutboxRow row = change.row();
        assertThat(row.id()).isEqualTo("3f1c1c9e-0000-4000-8000-000000000001");
        assertThat(row.aggregateType()).isEqualTo("toolonce.tool-results");
        assertThat(row.aggregateId()).isEqualTo("acme/payments/charge/k");
        assertThat(row.subject()).isNull();
        assertThat(row.payload()).isEqualTo("{\"x\": \"ü\"}");
        assertThat(row.traceparent()).isEqualTo("00-aa-bb-01");
        assertThat(row.createdAt()).isEqualTo(Instant.parse("2026-11-30T08:00:00.123456Z"));
    }

    @Test
    void fallsBackToMillisecondsWithoutTsUs() {
        assertThat(reader.read(event("c", "executor", "outbox_event", null)).orElseThrow().commitMicros())
                .isEqualTo(1_796_000_000_123_000L);
    }

    @Test
    void snapshotReadsCountAsInserts() {
        assertThat(reader.read(event("r", "executor", "outbox_event", 1L))).isPresent();
    }

    @Test
    void ignoresUpdatesDeletesOtherTablesTombstonesAndHeartbeats() {
        assertThat(reader.read(event("u", "executor", "outbox_event", 1L))).isEmpty();
        assertThat(reader.read(event("d", "executor", "outbox_event", 1L))).isEmpty();
        assertThat(reader.read(event("c", "agent", "outbox_event", 1L))).isEmpty();
        assertThat(reader.read(event("c", "executor", "other", 1L))).isEmpty();
        assertThat(reader.read(new SourceRecord(Map.of(), Map.of(), "t", null, null, null, null))).isEmpty();
        Schema heartbeat = SchemaBuilder.struct().field("ts_ms", Schema.INT64_SCHEMA).build();
        assertThat(reader.read(new SourceRecord(Map.of(), Map.of(), "__debezium-heartbeat.executor", null, null,
                heartbeat, new Struct(heartbeat).put("ts_ms", 1L)))).isEmpty();
    }

    @Test
    void readsZonedTimestampsWithOffsets() {
        assertThat(OutboxRowReader.instant("2026-11-30T09:00:00+01:00")).isEqualTo(Instant.parse("2026-11-30T08:00:00Z"));
    }
}
