package dev.toolonce.relay.engine;

import java.util.Properties;

import dev.toolonce.relay.config.JdbcLocation;
import dev.toolonce.relay.config.RelayProperties;
import dev.toolonce.relay.config.RelayProperties.Source;
import dev.toolonce.relay.connector.RelayPostgresConnector;
import dev.toolonce.relay.connector.RelayPostgresTask;
import dev.toolonce.relay.offsets.PostgresOffsetBackingStore;

/**
 * The Debezium engine properties of one source. Pure; every value comes from the relay's
 * settings, so this is the one place that shows how the engine is configured.
 */
public final class EngineSettings {

    /**
     * Updates the relay's heartbeat row and, in the same transaction, emits a transactional logical
     * decoding message. The heartbeat table is in no publication, and PostgreSQL 15's pgoutput skips
     * transactions without published changes, so the row alone would never reach the engine; the
     * message does (pgoutput sends messages whatever the publication), the engine sees its COMMIT,
     * and the slot advances on a database whose outbox is quiet.
     */
    static final String HEARTBEAT_QUERY = """
            WITH beat AS (UPDATE toolonce_relay.heartbeat SET beat_at = clock_timestamp(), slot_name = '%1$s' \
            WHERE id = 1 RETURNING slot_name) \
            SELECT pg_logical_emit_message(true, 'toolonce.relay.heartbeat', slot_name) FROM beat""";

    private EngineSettings() {
    }

    /**
     * The engine never snapshots: rows that the slot cannot deliver are published by
     * {@code snapshot.OutboxSnapshot} before the engine starts, from a slot that already exists,
     * so no commit can fall between the two. Debezium's own retries are switched off
     * ({@code errors.max.retries=0}): a lost database connection ends the engine at once and the
     * source's supervisor, which re-checks the slot and reports the outage on {@code /ready},
     * starts it again after its capped backoff, instead of Debezium waiting up to 10 s per
     * attempt behind a "polling" engine.
     *
     * @param relay  the relay's settings
     * @param source the source
     * @return new properties for {@code DebeziumEngine.Builder.using(Properties)}
     */
    public static Properties of(RelayProperties relay, Source source) {
        JdbcLocation db = source.location();
        Properties p = new Properties();
        p.setProperty("name", "toolonce-relay-" + source.name());
        p.setProperty("connector.class", RelayPostgresConnector.class.getName());
        p.setProperty("topic.prefix", source.name());

        p.setProperty("offset.storage", PostgresOffsetBackingStore.class.getName());
        p.setProperty(PostgresOffsetBackingStore.JDBC_URL, source.jdbcUrl());
        p.setProperty(PostgresOffsetBackingStore.USERNAME, source.username());
        p.setProperty(PostgresOffsetBackingStore.PASSWORD, source.password());
        p.setProperty(PostgresOffsetBackingStore.SLOT, source.slot());
        p.setProperty("offset.flush.interval.ms", Long.toString(relay.offsetFlushInterval().toMillis()));
        p.setProperty("offset.flush.timeout.ms", "10000");

        p.setProperty("database.hostname", db.host());
        p.setProperty("database.port", Integer.toString(db.port()));
        p.setProperty("database.dbname", db.database());
        p.setProperty("database.user", source.username());
        p.setProperty("database.password", source.password());

        p.setProperty("plugin.name", "pgoutput");
        p.setProperty("slot.name", source.slot());
        p.setProperty("slot.drop.on.stop", "false");
        p.setProperty("publication.name", source.publication());
        p.setProperty("publication.autocreate.mode", "disabled");
        p.setProperty("table.include.list", source.schema() + "\\." + source.tableName());
        p.setProperty("snapshot.mode", "no_data");
        p.setProperty("tombstones.on.delete", "false");

        p.setProperty("poll.interval.ms", Long.toString(relay.pollInterval().toMillis()));
        p.setProperty("max.batch.size", "1"); // see RelayPostgresTask: each queue poll returns one event at once
        p.setProperty(RelayPostgresTask.MAX_BATCH, Integer.toString(relay.maxBatchSize()));
        p.setProperty("max.queue.size", Integer.toString(Math.max(8192, 4 * relay.maxBatchSize())));

        p.setProperty("heartbeat.interval.ms", Long.toString(relay.heartbeatInterval().toMillis()));
        p.setProperty("heartbeat.action.query", HEARTBEAT_QUERY.formatted(source.slot()));

        p.setProperty("errors.max.retries", "0");
        // Two relays may both find the slot free and start; the one PostgreSQL refuses ("replication slot is active")
        // gives up after one retry 0.5 s later, instead of 6 retries 10 s apart, and goes back to standing by.
        p.setProperty("slot.max.retries", "1");
        p.setProperty("slot.retry.delay.ms", "500");
        p.setProperty("retriable.restart.connector.wait.ms", "500");
        return p;
    }
}
