package dev.toolonce.relay.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

import dev.toolonce.relay.config.RelayProperties;
import dev.toolonce.relay.config.RelayProperties.Source;
import dev.toolonce.relay.connector.RelayPostgresConnector;
import dev.toolonce.relay.connector.RelayPostgresTask;
import dev.toolonce.relay.offsets.PostgresOffsetBackingStore;

class EngineSettingsTest {

    final Source source = new Source("executor", "jdbc:postgresql://127.0.0.1:25432/toolonce?sslmode=disable",
            "relay", "secret", "toolonce_executor_slot", "toolonce_executor_outbox", "executor.outbox_event");
    final RelayProperties relay = new RelayProperties(List.of(source), "127.0.0.1:29092", Duration.ofMillis(10),
            Duration.ofMillis(20), 2048, Duration.ofMillis(750), Duration.ofSeconds(5), "toolonce.relay.dlq",
            DataSize.ofMegabytes(1), Duration.ofMillis(500), Duration.ofSeconds(2), null);

    @Test
    void configuresThePostgresConnectorForTheOutboxTable() {
        Properties p = EngineSettings.of(relay, source);
        assertThat(p)
                .containsEntry("connector.class", RelayPostgresConnector.class.getName())
                .containsEntry("plugin.name", "pgoutput")
                .containsEntry("slot.name", "toolonce_executor_slot")
                .containsEntry("publication.name", "toolonce_executor_outbox")
                .containsEntry("publication.autocreate.mode", "disabled")
                .containsEntry("table.include.list", "executor\\.outbox_event")
                .containsEntry("snapshot.mode", "no_data")
                .containsEntry("poll.interval.ms", "10")
                .containsEntry("max.batch.size", "1")
                .containsEntry(RelayPostgresTask.MAX_BATCH, "2048")
                .containsEntry("offset.flush.interval.ms", "750")
                .containsEntry("heartbeat.interval.ms", "5000")
                .containsEntry("topic.prefix", "executor")
                .containsEntry("database.hostname", "127.0.0.1")
                .containsEntry("database.port", "25432")
                .containsEntry("database.dbname", "toolonce")
                .containsEntry("database.user", "relay")
                .containsEntry("offset.storage", PostgresOffsetBackingStore.class.getName())
                .containsEntry(PostgresOffsetBackingStore.SLOT, "toolonce_executor_slot")
                .containsEntry(PostgresOffsetBackingStore.JDBC_URL, source.jdbcUrl());
        assertThat(p.getProperty("heartbeat.action.query"))
                .contains("UPDATE toolonce_relay.heartbeat SET beat_at = clock_timestamp(), "
                        + "slot_name = 'toolonce_executor_slot' WHERE id = 1")
                .contains("pg_logical_emit_message(true, 'toolonce.relay.heartbeat'")
                .doesNotContain("\n");
        assertThat(Integer.parseInt(p.getProperty("max.queue.size"))).isGreaterThan(2048);
    }

    @Test
    void leavesRetriesToTheSupervisorSoAnOutageIsVisibleAndResumeIsPromptAfterIt() {
        assertThat(EngineSettings.of(relay, source))
                .containsEntry("errors.max.retries", "0")
                .containsEntry("snapshot.mode", "no_data");
    }

    @Test
    void aRelayRefusedTheSlotByAnotherGivesUpWithinASecondAndStandsBy() {
        assertThat(EngineSettings.of(relay, source))
                .containsEntry("slot.max.retries", "1")
                .containsEntry("slot.retry.delay.ms", "500");
    }
}
