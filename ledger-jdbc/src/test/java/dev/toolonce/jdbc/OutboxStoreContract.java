package dev.toolonce.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link OutboxStore} for any database with the outbox DDL (docs/protocol.md §14): events are written with the
 * caller's transaction or not at all, byte for byte, never twice under one id, never too large to relay.
 */
abstract class OutboxStoreContract {
    private DataSource db;
    private JdbcTemplate jdbc;
    private OutboxStore outbox;

    /** A new database holding an empty {@code outbox_event} table in {@link #schema()}. */
    protected abstract DataSource newDatabase();

    protected String schema() {
        return PostgresLedgers.SCHEMA;
    }

    @BeforeEach
    void freshOutbox() {
        db = newDatabase();
        jdbc = new JdbcTemplate(db);
        outbox = new OutboxStore(jdbc, schema());
    }

    private static OutboxEvent event(UUID id, String payload) {
        return new OutboxEvent(id, "toolonce.tool-results", "acme/payments/charge/k-1", "dev.toolonce.tool-result.v1",
                "/toolonce/tool-executor", "acme/payments/charge/k-1", payload, null);
    }

    private List<String> payloads() {
        return jdbc.queryForList("SELECT payload FROM " + schema() + ".outbox_event ORDER BY created_at, id", String.class);
    }

    @Test
    void eventsAreStoredByteForByte() {
        String payload = "{ \"b\":1,\n  \"a\":\"é \\u0000 😀\" }";
        outbox.append(List.of(event(UUID.randomUUID(), payload), event(UUID.randomUUID(), "{}")));

        assertThat(payloads()).containsExactlyInAnyOrder(payload, "{}");
    }

    @Test
    void eventsOfARolledBackTransactionAreNeverWritten() {
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(db));
        tx.executeWithoutResult(s -> {
            outbox.append(event(UUID.randomUUID(), "{}"));
            s.setRollbackOnly();
        });
        assertThat(payloads()).isEmpty();
    }

    @Test
    void aSecondEventUnderTheSameIdIsRefusedAndTheFirstStays() {
        UUID id = UUID.randomUUID();
        outbox.append(event(id, "{\"first\":true}"));

        assertThatThrownBy(() -> outbox.append(event(id, "{\"second\":true}"))).isInstanceOf(DuplicateKeyException.class);
        assertThat(payloads()).containsExactly("{\"first\":true}");
    }

    @Test
    void aPayloadTooLargeToRelayIsRefusedBeforeAnythingOfTheBatchIsWritten() {
        String tooLarge = "\"" + "x".repeat(OutboxStore.MAX_PAYLOAD_BYTES) + "\"";
        assertThatThrownBy(() -> outbox.append(List.of(event(UUID.randomUUID(), "{}"), event(UUID.randomUUID(), tooLarge))))
                .isInstanceOf(OutboxStore.PayloadTooLargeException.class);
        assertThat(payloads()).isEmpty();
        outbox.append(List.of());
        assertThat(payloads()).isEmpty();
    }

    @Test
    void aPurgeDeletesOnlyRowsOlderThanItsKeepInBatches() {
        outbox.append(List.of(event(UUID.randomUUID(), "{\"n\":1}"), event(UUID.randomUUID(), "{\"n\":2}"),
                event(UUID.randomUUID(), "{\"n\":3}")));

        assertThat(outbox.purgeOlderThan(Duration.ofHours(1), 10)).as("nothing is old enough").isZero();
        assertThat(outbox.purgeOlderThan(Duration.ZERO, 2)).as("one batch").isEqualTo(2);
        assertThat(outbox.purgeOlderThan(Duration.ZERO, 2)).isEqualTo(1);
        assertThat(payloads()).isEmpty();
    }
}
