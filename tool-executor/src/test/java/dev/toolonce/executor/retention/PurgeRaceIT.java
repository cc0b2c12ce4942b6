package dev.toolonce.executor.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import dev.toolonce.executor.ledger.ToolCallRetention;
import dev.toolonce.executor.ledger.ToolCallStore;
import dev.toolonce.jdbc.InboxStore;
import dev.toolonce.jdbc.OutboxStore;
import dev.toolonce.testsupport.LockWaits;
import dev.toolonce.testsupport.TestStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Issue 7: a purge racing with intake can never plan a purged scope again. The purge's transaction deletes the
 * scope's terminal call and writes its tombstone; an intake insert for the same scope that runs meanwhile waits on
 * the deleted row and, once the purge commits, would go through — its NOT EXISTS saw no tombstone. The store must
 * notice and undo it. The interleaving is forced with a purge transaction held open on its own connection.
 */
class PurgeRaceIT {
    private static final String SCHEMA = "executor";
    private final CallScope scope = new CallScope("acme", "counter", "apply", "purged-key");
    private String url;
    private JdbcTemplate jdbc;
    private TransactionTemplate tx;
    private ToolCallStore calls;

    @BeforeEach
    void setUp() {
        url = TestStack.get().freshDatabase("purge_race");
        Flyway.configure().dataSource(url, "postgres", "").schemas(SCHEMA).defaultSchema(SCHEMA)
                .locations("classpath:db/migration/executor").placeholders(Map.of("publication", "purge_race_pub"))
                .load().migrate();
        DataSource ds = TestStack.pooled(url);
        jdbc = new JdbcTemplate(ds);
        tx = new TransactionTemplate(new DataSourceTransactionManager(ds));
        calls = new ToolCallStore(jdbc, SCHEMA);
    }

    private ToolCallStore.NewCall newCall(String intent) {
        return new ToolCallStore.NewCall(scope, ProviderKey.of(scope), new RequestHash("sha256:" + "1".repeat(64)),
                "{}", "task", "1", intent, null);
    }

    @Test
    void anIntakeInsertThatWaitedOnAPurgedRowIsUndoneAndTheScopeIsNeverPlannedAgain() throws Exception {
        long id = tx.execute(s -> calls.insertPlanned(newCall("m-1"))).orElseThrow().id();
        jdbc.update("UPDATE executor.tool_call SET state = 'COMMITTED', terminal_at = now() - interval '30 days' WHERE id = ?", id);
        RetentionPurger purger = new RetentionPurger(new ToolCallRetention(jdbc, SCHEMA), new InboxStore(jdbc, SCHEMA),
                new OutboxStore(jdbc, SCHEMA), Duration.ofDays(8), Duration.ofDays(1), 100);

        try (Connection purge = DriverManager.getConnection(url, "postgres", "")) {
            purge.setAutoCommit(false);
            // The purge's own statement, on a transaction left open: the row is deleted, the tombstone written.
            JdbcTemplate onPurge = new JdbcTemplate(new org.springframework.jdbc.datasource.SingleConnectionDataSource(purge, true));
            new RetentionPurger(new ToolCallRetention(onPurge, SCHEMA), new InboxStore(onPurge, SCHEMA),
                    new OutboxStore(onPurge, SCHEMA), Duration.ofDays(8), Duration.ofDays(1), 100).purgeOnce();

            CompletableFuture<Optional<ToolCall>> intake = CompletableFuture.supplyAsync(
                    () -> tx.execute(s -> calls.insertPlanned(newCall("m-2"))));
            // The intake insert is now blocked on the row the purge deleted.
            await().atMost(Duration.ofSeconds(10)).until(() -> waitingOnALock() >= 1);
            assertThat(intake.isDone()).isFalse();
            purge.commit();

            assertThat(intake.get()).as("the racing insert reports nothing planned").isEmpty();
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM executor.tool_call", Integer.class)).isZero();
        assertThat(calls.tombstone(scope)).isPresent();
        // And afterwards, as before the fix, the plain path refuses too.
        Optional<ToolCall> later = tx.execute(s -> calls.insertPlanned(newCall("m-3")));
        assertThat(later).isEmpty();
        assertThat(purger.purgeOnce()).isZero();
    }

    private int waitingOnALock() {
        return LockWaits.sessionsWaiting(jdbc.getDataSource());
    }
}
