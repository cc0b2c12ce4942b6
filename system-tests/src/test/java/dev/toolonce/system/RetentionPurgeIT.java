package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.executor.ledger.ToolCallRetention;
import dev.toolonce.executor.retention.RetentionPurger;
import dev.toolonce.executor.ledger.ToolCallStore;
import dev.toolonce.jdbc.InboxStore;
import dev.toolonce.jdbc.OutboxStore;
import dev.toolonce.testsupport.TestStack;
import java.time.Duration;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * docs/protocol.md §13 against a real ledger: terminal calls past retention go, by {@code terminal_at}, and
 * leave a tombstone; recent or unfinished calls stay.
 */
class RetentionPurgeIT {

    @Test
    void terminalCallsPastRetentionArePurgedIntoTombstonesAndNothingElseIs() {
        String url = TestStack.get().freshDatabase("purge");
        Flyway.configure().dataSource(url, "postgres", "").schemas("executor").defaultSchema("executor")
                .locations("classpath:db/migration/executor").placeholders(Map.of("publication", "purge_pub"))
                .load().migrate();
        JdbcTemplate jdbc = new JdbcTemplate(TestStack.pooled(url));
        insert(jdbc, "old-done", "COMMITTED", "10 days", "ch_1");
        insert(jdbc, "new-done", "COMMITTED", "1 day", "ch_2");
        insert(jdbc, "old-open", "UNKNOWN", null, null);
        insert(jdbc, "old-review", "NEEDS_REVIEW", "10 days", null);

        int purged = new RetentionPurger(new ToolCallRetention(jdbc, "executor"), new InboxStore(jdbc, "executor"),
                new OutboxStore(jdbc, "executor"), Duration.ofDays(8), Duration.ofDays(1), 100).purgeOnce();

        assertThat(purged).isEqualTo(1);
        assertThat(jdbc.queryForList("SELECT idempotency_key FROM executor.tool_call ORDER BY idempotency_key", String.class))
                .containsExactly("new-done", "old-open", "old-review");
        ToolCallStore store = new ToolCallStore(jdbc, "executor");
        assertThat(store.tombstone(new CallScope("t", "payments", "charge", "old-done")))
                .hasValueSatisfying(t -> assertThat(t).startsWith("COMMITTED ch_1 at "));
        assertThat(store.tombstone(new CallScope("t", "payments", "charge", "new-done"))).isEmpty();
    }

    private static void insert(JdbcTemplate jdbc, String key, String state, String terminalAgo, String ext) {
        jdbc.update("""
                INSERT INTO executor.tool_call (tenant_id, tool, operation, idempotency_key, provider_key, request_hash,
                    arguments, state, intent_message_id, external_object_id, terminal_at)
                VALUES ('t', 'payments', 'charge', ?, 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
                    'sha256:0000000000000000000000000000000000000000000000000000000000000000', '{}', ?, 'm', ?,
                    clock_timestamp() - ?::interval)""", key, state, ext, terminalAgo);
    }
}
