package dev.toolonce.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.jdbc.InboxStore.Seen;
import dev.toolonce.testsupport.LockWaits;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link InboxStore} for any database with the inbox DDL (docs/protocol.md §14): insert first, a conflict means
 * "seen"; of two deliveries of one message racing in two transactions exactly one is {@code NEW}.
 */
abstract class InboxStoreContract {
    private DataSource db;
    private InboxStore inbox;

    /** A new database holding an empty {@code inbox_message} table in {@link #schema()}. */
    protected abstract DataSource newDatabase();

    protected String schema() {
        return PostgresLedgers.SCHEMA;
    }

    /** How many sessions wait on a lock; PostgreSQL's answer by default. */
    protected int waitingOnALock(DataSource db) {
        return LockWaits.sessionsWaiting(db);
    }

    @BeforeEach
    void freshInbox() {
        db = newDatabase();
        inbox = new InboxStore(new JdbcTemplate(db), schema());
    }

    private Seen record(InboxStore store, String group, String id, String hash) {
        return store.record(group, id, hash, "topic", 0, 42L);
    }

    @Test
    void firstDeliveryIsNewARedeliveryIsADuplicateAndAnotherPayloadIsAReuse() {
        assertThat(record(inbox, "g", "m-1", "h1")).isEqualTo(Seen.NEW);
        assertThat(record(inbox, "g", "m-1", "h1")).isEqualTo(Seen.DUPLICATE);
        assertThat(record(inbox, "g", "m-1", "h2")).isEqualTo(Seen.REUSED);
        assertThat(record(inbox, "g", "m-1", "h1")).as("the first payload stays the recorded one")
                .isEqualTo(Seen.DUPLICATE);
    }

    @Test
    void eachConsumerGroupHasAnInboxOfItsOwn() {
        assertThat(record(inbox, "executor", "m-1", "h1")).isEqualTo(Seen.NEW);
        assertThat(record(inbox, "agent", "m-1", "h1")).isEqualTo(Seen.NEW);
    }

    @Test
    void ofTwoTransactionsRecordingOneMessageOneWinsAndTheOtherWaitsThenSeesADuplicate() throws Exception {
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(db));
        InboxStore other = new InboxStore(new JdbcTemplate(db), schema());
        CountDownLatch firstRecorded = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Seen> first = pool.submit(() -> tx.execute(s -> {
                Seen seen = record(inbox, "g", "m-1", "h1");
                firstRecorded.countDown();
                await(release);
                return seen;
            }));
            assertThat(firstRecorded.await(10, TimeUnit.SECONDS)).isTrue();
            Future<Seen> second = pool.submit(() -> tx.execute(s -> record(other, "g", "m-1", "h1")));
            org.awaitility.Awaitility.await("the second insert waits for the first transaction")
                    .atMost(java.time.Duration.ofSeconds(10)).until(() -> waitingOnALock(db) >= 1);
            assertThat(second.isDone()).isFalse();
            release.countDown();
            List<Seen> outcomes = new ArrayList<>(List.of(first.get(10, TimeUnit.SECONDS), second.get(10, TimeUnit.SECONDS)));
            assertThat(outcomes).containsExactlyInAnyOrder(Seen.NEW, Seen.DUPLICATE);
            assertThat(outcomes.get(0)).as("the transaction that inserted first").isEqualTo(Seen.NEW);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aBatchSaysOfEachMessageWhatRecordingThemOneByOneWouldSay() {
        assertThat(record(inbox, "g", "old", "h1")).isEqualTo(Seen.NEW);
        List<InboxStore.Message> batch = List.of(message("m-1", "h1"), message("old", "h1"), message("m-2", "h2"),
                message("m-1", "h1"), message("old", "other"), message("m-2", "h3"), message("m-3", "h3"));
        assertThat(inbox.recordAll("g", batch)).containsExactly(Seen.NEW, Seen.DUPLICATE, Seen.NEW, Seen.DUPLICATE,
                Seen.REUSED, Seen.REUSED, Seen.NEW);
        assertThat(record(inbox, "g", "m-2", "h2")).as("the first of a batch's twins is the one recorded")
                .isEqualTo(Seen.DUPLICATE);
        assertThat(inbox.recordAll("g", List.of())).isEmpty();
        assertThat(inbox.recordAll("other", List.of(message("m-1", "h9")))).as("another group's inbox")
                .containsExactly(Seen.NEW);
    }

    @Test
    void aBatchRacingARecordOfOneOfItsMessagesSeesItAsADuplicate() throws Exception {
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(db));
        InboxStore other = new InboxStore(new JdbcTemplate(db), schema());
        CountDownLatch firstRecorded = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Seen> first = pool.submit(() -> tx.execute(s -> {
                Seen seen = record(inbox, "g", "m-2", "h2");
                firstRecorded.countDown();
                await(release);
                return seen;
            }));
            assertThat(firstRecorded.await(10, TimeUnit.SECONDS)).isTrue();
            Future<List<Seen>> batch = pool.submit(() -> tx.execute(s -> other.recordAll("g",
                    List.of(message("m-1", "h1"), message("m-2", "h2")))));
            org.awaitility.Awaitility.await("the batch waits for the first transaction")
                    .atMost(java.time.Duration.ofSeconds(10)).until(() -> waitingOnALock(db) >= 1);
            release.countDown();
            assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(Seen.NEW);
            assertThat(batch.get(10, TimeUnit.SECONDS)).containsExactly(Seen.NEW, Seen.DUPLICATE);
        } finally {
            pool.shutdownNow();
        }
    }

    private static InboxStore.Message message(String id, String hash) {
        return new InboxStore.Message(id, hash, "topic", 0, 42L);
    }

    @Test
    void aRolledBackRecordLeavesTheMessageUnseen() {
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(db));
        tx.executeWithoutResult(s -> {
            assertThat(record(inbox, "g", "m-1", "h1")).isEqualTo(Seen.NEW);
            s.setRollbackOnly();
        });
        assertThat(record(inbox, "g", "m-1", "h1")).as("the effect and its inbox row go together").isEqualTo(Seen.NEW);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aPurgedMessageIsNewAgainAndOnlyMessagesOlderThanRetentionGo() {
        assertThat(record(inbox, "g", "m-1", "h1")).isEqualTo(Seen.NEW);
        assertThat(record(inbox, "other", "m-2", "h2")).isEqualTo(Seen.NEW);

        assertThat(inbox.purgeOlderThan(java.time.Duration.ofHours(1), 10)).as("nothing is old enough").isZero();
        assertThat(record(inbox, "g", "m-1", "h1")).isEqualTo(Seen.DUPLICATE);
        assertThat(inbox.purgeOlderThan(java.time.Duration.ZERO, 10)).as("every group's rows").isEqualTo(2);
        assertThat(record(inbox, "g", "m-1", "h1")).as("forgotten: retention must outlast redelivery")
                .isEqualTo(Seen.NEW);
    }
}
