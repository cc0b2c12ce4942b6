package dev.toolonce.executor.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import dev.toolonce.executor.ledger.PendingReplyStore.PendingReply;
import dev.toolonce.testsupport.LockWaits;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
 * {@link PendingReplyStore} for any database with the ledger's DDL (docs/protocol.md §15): a waiting duplicate is
 * recorded once, and taken — answered — by exactly one completing transaction.
 */
abstract class PendingReplyStoreContract {
    private static final String TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private DataSource db;
    private PendingReplyStore pending;
    private long callId;
    private long otherCallId;

    /** A new database holding an empty ledger in {@link #schema()}. */
    protected abstract DataSource newLedger();

    protected String schema() {
        return PostgresLedgers.SCHEMA;
    }

    /** How many sessions wait on a row lock; PostgreSQL's answer by default. */
    protected int waitingOnALock(DataSource db) {
        return LockWaits.sessionsWaiting(db);
    }

    @BeforeEach
    void freshLedger() {
        db = newLedger();
        pending = new PendingReplyStore(new JdbcTemplate(db), schema());
        ToolCallStore calls = new ToolCallStore(new JdbcTemplate(db), schema());
        callId = plan(calls, "k-1");
        otherCallId = plan(calls, "k-2");
    }

    private static long plan(ToolCallStore calls, String key) {
        CallScope scope = new CallScope("acme", "tickets", "create", key);
        return calls.insertPlanned(new ToolCallStore.NewCall(scope, ProviderKey.of(scope),
                new RequestHash("sha256:" + "b".repeat(64)), "{}", "task", "1", "m-" + key, null)).orElseThrow().id();
    }

    @Test
    void aDuplicateIsRecordedOnceAndTakenOnce() {
        PendingReply reply = new PendingReply("dup-1", "task", "2", TRACE);
        pending.add(callId, reply);
        pending.add(callId, reply);
        pending.add(callId, new PendingReply("dup-2", "task", "3", null));

        assertThat(pending.take(callId)).as("each with the trace it arrived with")
                .containsExactlyInAnyOrder(reply, new PendingReply("dup-2", "task", "3", null));
        assertThat(pending.take(callId)).as("answered already").isEmpty();
    }

    @Test
    void takeAllReturnsEachCallsRepliesAndLeavesOtherCallsAlone() {
        pending.add(callId, new PendingReply("dup-1", null, null, null));
        pending.add(otherCallId, new PendingReply("dup-2", null, null, null));

        Map<Long, List<PendingReply>> taken = pending.takeAll(List.of(callId, 999_999L));

        assertThat(taken).containsOnlyKeys(callId);
        assertThat(pending.take(otherCallId)).extracting(PendingReply::intentMessageId).containsExactly("dup-2");
        assertThat(pending.takeAll(List.of())).isEmpty();
    }

    @Test
    void ofTwoTransactionsTakingOneCallsRepliesTheSecondWaitsAndGetsNone() throws Exception {
        pending.add(callId, new PendingReply("dup-1", null, null, null));
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(db));
        PendingReplyStore other = new PendingReplyStore(new JdbcTemplate(db), schema());
        CountDownLatch firstTook = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<List<PendingReply>> first = pool.submit(() -> tx.execute(s -> {
                List<PendingReply> got = pending.take(callId);
                firstTook.countDown();
                awaitLatch(release);
                return got;
            }));
            assertThat(firstTook.await(10, TimeUnit.SECONDS)).isTrue();
            Future<List<PendingReply>> second = pool.submit(() -> tx.execute(s -> other.take(callId)));
            await("the second take waits for the first").atMost(Duration.ofSeconds(10))
                    .until(() -> waitingOnALock(db) >= 1);
            assertThat(second.isDone()).isFalse();
            release.countDown();

            assertThat(first.get(10, TimeUnit.SECONDS)).extracting(PendingReply::intentMessageId).containsExactly("dup-1");
            assertThat(second.get(10, TimeUnit.SECONDS)).as("a reply is answered by one transaction only").isEmpty();
        } finally {
            pool.shutdownNow();
        }
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
