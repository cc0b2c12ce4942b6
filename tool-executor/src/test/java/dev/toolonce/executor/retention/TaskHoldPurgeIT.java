package dev.toolonce.executor.retention;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import dev.toolonce.executor.ledger.TaskHoldStore;
import dev.toolonce.executor.ledger.ToolCallRetention;
import dev.toolonce.executor.ledger.ToolCallStore;
import dev.toolonce.jdbc.InboxStore;
import dev.toolonce.jdbc.OutboxStore;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.schemas.signing.SigningKey;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.TestStack;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Issue 10, test 6, on a real PostgreSQL: a ledger row referenced by an open task is never purged, however old; once
 * the task's newest event says it is closed, the row goes like any other — and an older event redelivered later
 * cannot reopen it.
 */
class TaskHoldPurgeIT {
    /** One step, as a task event carries at least one (agent-task.v1.json). */
    private static final String STEP = "{\"stepId\":\"s1\",\"tool\":\"counter\",\"operation\":\"apply\","
            + "\"idempotencyKey\":\"acme:t:s1:1\",\"state\":\"RUNNING\",\"compensable\":false,\"irreversible\":false,"
            + "\"needsApproval\":false,\"publishes\":1}";
    private static final String SCHEMA = "executor";
    private JdbcTemplate jdbc;
    private ToolCallStore calls;
    private TaskHolds holds;
    private final List<String> deadLettered = new CopyOnWriteArrayList<>();
    private RetentionPurger purger;
    private final Keyring keyring = TestKeys.keyring();

    @BeforeEach
    void setUp() {
        String url = TestStack.get().freshDatabase("taskhold");
        Flyway.configure().dataSource(url, "postgres", "").schemas(SCHEMA).defaultSchema(SCHEMA)
                .locations("classpath:db/migration/executor").placeholders(Map.of("publication", "taskhold_pub"))
                .load().migrate();
        DataSource ds = TestStack.pooled(url);
        jdbc = new JdbcTemplate(ds);
        calls = new ToolCallStore(jdbc, SCHEMA);
        holds = new TaskHolds(new TaskHoldStore(jdbc, SCHEMA), keyring, (r, code, message) -> deadLettered.add(r.offset() + " " + code),
                new TransactionTemplate(new DataSourceTransactionManager(ds)), () -> true, 3, new SimpleMeterRegistry());
        purger = new RetentionPurger(new ToolCallRetention(jdbc, SCHEMA), new InboxStore(jdbc, SCHEMA),
                new OutboxStore(jdbc, SCHEMA), Duration.ofDays(8), Duration.ofDays(1), 100);
    }

    @Test
    void aCallOfAnOpenTaskIsNeverPurgedAndGoesOnceTheTaskIsClosed() {
        long step1 = committedLongAgo("acme:order-1:reserve:1", "order-1");
        long other = committedLongAgo("acme:order-2:reserve:1", "order-2");
        holds.onBatch(List.of(event("order-1", 3, true)));

        purger.purgeOnce();
        assertThat(calls.findById(step1)).as("held by its open task").isPresent();
        assertThat(calls.findById(other)).as("no task holds it").isEmpty();

        holds.onBatch(List.of(event("order-1", 7, false), event("order-1", 5, true))); // the older event comes late
        assertThat(jdbc.queryForObject("SELECT open FROM executor.task_hold WHERE task_id = 'order-1'", Boolean.class))
                .isFalse();
        purger.purgeOnce();
        assertThat(calls.findById(step1)).isEmpty();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM executor.tool_call_tombstone", Integer.class)).isEqualTo(2);
    }

    @Test
    void anUnreadableTaskEventIsDeadLetteredAloneAndHoldsNothing() {
        holds.onBatch(List.of(TestKeys.sign(new ConsumerRecord<>("toolonce.agent-tasks", 0, 0, null,
                "{not json".getBytes(StandardCharsets.UTF_8)), TestKeys.agents()), event("order-3", 1, true)));
        assertThat(jdbc.queryForList("SELECT task_id FROM executor.task_hold", String.class)).containsExactly("order-3");
        assertThat(deadLettered).containsExactly("0 " + TaskHolds.UNREADABLE_TASK_EVENT);
    }

    @Test
    void aTaskEventWithANulInItsTaskIdIsDeadLetteredAndTheNextOneIsApplied() {
        String nul = "{\"messageId\":\"m\",\"at\":\"2026-12-01T00:00:00Z\",\"tenantId\":\"acme\","
                + "\"taskId\":\"a\\u0000b\",\"state\":\"RUNNING\",\"open\":true,\"version\":1,\"steps\":[" + STEP + "]}";
        holds.onBatch(List.of(TestKeys.sign(new ConsumerRecord<>("toolonce.agent-tasks", 0, 40, null,
                nul.getBytes(StandardCharsets.UTF_8)), TestKeys.agents()), event("order-4", 41, true)));
        assertThat(jdbc.queryForList("SELECT task_id FROM executor.task_hold", String.class)).containsExactly("order-4");
        assertThat(deadLettered).containsExactly("40 SCHEMA_INVALID");
    }

    @Test
    void aTaskEventNotSignedByAnAgentKeyForItsTenantHoldsOrReleasesNothing() {
        holds.onBatch(List.of(event("order-5", 1, true)));
        ConsumerRecord<byte[], byte[]> unsigned = event("order-5", 9, false);
        unsigned.headers().remove(Contract.SIGNATURE);
        ConsumerRecord<byte[], byte[]> byTheExecutorsKey = TestKeys.sign(event("order-6", 10, true), TestKeys.executor());
        SigningKey globex = TestKeys.add(SigningKey.generate(EnumSet.of(Power.TASK), Set.of("globex"), "globex-tasks"));
        ConsumerRecord<byte[], byte[]> otherTenants = TestKeys.sign(event("order-7", 11, true), globex);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> keyring.keys().contains(globex));
        holds.onBatch(List.of(unsigned, byTheExecutorsKey, otherTenants));
        assertThat(jdbc.queryForList("SELECT task_id || ':' || open FROM executor.task_hold", String.class))
                .as("order-5 stays held; nothing else is").containsExactly("order-5:true");
        assertThat(deadLettered).containsExactly("9 UNSIGNED_RECORD", "10 SIGNER_NOT_ALLOWED", "11 SIGNER_NOT_ALLOWED");
    }

    private long committedLongAgo(String key, String task) {
        CallScope scope = new CallScope("acme", "tickets", "create", key);
        long id = calls.insertPlanned(new ToolCallStore.NewCall(scope, ProviderKey.of(scope),
                new RequestHash("sha256:" + "0".repeat(64)), "{}", task, "reserve", "m-" + key, null)).orElseThrow().id();
        jdbc.update("UPDATE executor.tool_call SET state = 'COMMITTED', terminal_at = now() - interval '30 days' "
                + "WHERE id = ?", id);
        return id;
    }

    private static ConsumerRecord<byte[], byte[]> event(String task, long version, boolean open) {
        String json = "{\"messageId\":\"m-" + task + "-" + version + "\",\"at\":\"2026-12-01T00:00:00Z\","
                + "\"tenantId\":\"acme\",\"taskId\":\"" + task + "\",\"version\":" + version + ",\"open\":" + open
                + ",\"state\":\"" + (open ? "RUNNING" : "SUCCEEDED") + "\",\"steps\":[" + STEP + "]}";
        return TestKeys.sign(new ConsumerRecord<>("toolonce.agent-tasks", 0, version,
                ("acme/" + task).getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8)), TestKeys.agents());
    }
}
