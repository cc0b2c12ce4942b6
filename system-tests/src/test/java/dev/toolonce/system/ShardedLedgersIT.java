package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.agent.publish.TraceContext;
import dev.toolonce.chaos.oracle.Oracle;
import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.shard.TenantShards;
import dev.toolonce.executor.intake.Intake;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestKeys;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 24, point 4: the ledger sharded by tenant across two PostgreSQL databases on this machine (docs/scaling.md
 * §3). Shard {@code a} serves one tenant, shard {@code b} every other; each has its own database, intents topic,
 * consumer group, executor process and relay source (one relay process reads both). The agent routes each intent by
 * the same map; results of both shards reach the one agent. Under faults — 503 answers after the charge was applied,
 * and a SIGKILL of shard a's executor in the middle of the run — both ledgers are judged by the chaos experiment's
 * criteria (its oracle's queries for lost steps and stuck calls, effects counted at the sandbox): no duplicate effect,
 * no lost call, no stuck call, and no tenant's calls in the other shard's ledger. An intent sent to the wrong shard is
 * refused there ({@code TENANT_NOT_SERVED}) and never planned.
 */
class ShardedLedgersIT {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final int PER_TENANT = 24;
    private static SystemStack stack;
    private static Fixtures one;   // shard a's tenant
    private static Fixtures two;   // a tenant of shard b (every other tenant)
    private static Fixtures three; // another tenant of shard b
    private static LoneExecutor a;
    private static LoneExecutor b;
    private static ServiceProcess relay;
    private static IntentPublisher agent;
    private static String[] argsOfA;

    @BeforeAll
    static void shards() throws Exception {
        stack = SystemStack.get();
        one = new Fixtures(stack);
        two = new Fixtures(stack);
        three = new Fixtures(stack);
        one.clearFaults();
        String[] map = {"--toolonce.executor.shards[0].name=a", "--toolonce.executor.shards[0].tenants[0]=" + one.tenant,
                "--toolonce.executor.shards[1].name=b", "--toolonce.executor.shards[1].tenants[0]=*"};
        argsOfA = with(map, "--toolonce.executor.shard=a");
        a = new LoneExecutor(stack, argsOfA);
        b = new LoneExecutor(stack, with(map, "--toolonce.executor.shard=b"));
        relay = startRelay();
        TenantShards shards = TenantShards.of(List.of(new TenantShards.Shard("a", Set.of(one.tenant)),
                new TenantShards.Shard("b", Set.of("*"))));
        agent = IntentPublisher.sharded("agent", shards, Map.of("a", a.topic, "b", b.topic), "/agents/sharded",
                TraceContext.NONE, TestKeys.keyring());
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {a, b}) {
            if (c != null) {
                c.close();
            }
        }
        if (relay != null) {
            relay.stop();
        }
        // the relay's slots are cluster-wide: a reused test cluster must not keep them (nor the WAL they hold)
        try (Connection c = DriverManager.getConnection(stack.infra.jdbcUrl(), "postgres", "");
             java.sql.Statement st = c.createStatement()) {
            for (LoneExecutor shard : new LoneExecutor[] {a, b}) {
                if (shard != null) {
                    st.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE NOT active "
                            + "AND slot_name = '" + slot(shard) + "'");
                }
            }
        }
        if (one != null) {
            one.clearFaults();
            one.close();
            two.close();
            three.close();
        }
    }

    @Test
    void eachTenantsCallsStayInItsShardAndTheOracleFindsNoDuplicateLostOrStuckCallInEither() throws Exception {
        // four charges applied and then answered 503: retried with their keys, each must stay a single effect
        one.faults("payments", "{\"failStatus\":503,\"failStatusNext\":4,\"failStatusAfterApply\":true}");
        List<Fixtures> tenants = List.of(one, two, three);
        for (int i = 0; i < PER_TENANT; i++) {
            for (Fixtures t : tenants) {
                one.publish(agent, i % 4 == 3 ? t.tickets("sh-" + i) : t.payments("sh-" + i, 100 + i));
            }
            if (i == PER_TENANT / 2) {
                // shard a's executor dies once it has planned calls (some may be in flight); shard b goes on
                await().atMost(WAIT).until(() -> count(a.jdbcUrl, "SELECT count(*) FROM executor.tool_call "
                        + "WHERE tenant_id = ?", one.tenant) > 0);
                a.process.kill9();
                a.start(argsOfA);
            }
        }

        // quiesced: every step of the three tenants answered (the agent's view), every call final in its shard
        await().atMost(WAIT).until(() -> {
            for (Fixtures t : tenants) {
                if (count(stack.jdbcUrl, Oracle.PENDING_STEPS, t.tenant) > 0) {
                    return false;
                }
            }
            return true;
        });
        assertThat(count(a.jdbcUrl, Oracle.STUCK, one.tenant)).as("stuck in shard a").isZero();
        for (Fixtures t : List.of(two, three)) {
            assertThat(count(b.jdbcUrl, Oracle.STUCK, t.tenant)).as("stuck in shard b").isZero();
        }
        // never split: each tenant's calls are all in its own shard's ledger, none in the other's
        String calls = "SELECT count(*) FROM executor.tool_call WHERE tenant_id = ?";
        assertThat(count(a.jdbcUrl, calls, one.tenant)).isEqualTo(PER_TENANT);
        assertThat(count(b.jdbcUrl, calls, one.tenant)).isZero();
        for (Fixtures t : List.of(two, three)) {
            assertThat(count(b.jdbcUrl, calls, t.tenant)).isEqualTo(PER_TENANT);
            assertThat(count(a.jdbcUrl, calls, t.tenant)).isZero();
        }
        // no duplicate effect, none lost: each charge applied exactly once at the sandbox, each ticket created once
        for (Fixtures t : tenants) {
            for (int i = 0; i < PER_TENANT; i++) {
                String opId = t.tenant + ":sh-" + i;
                if (i % 4 == 3) {
                    assertThat(t.effect(opId)).as(opId).isNotNull();
                    assertThat(t.effect(opId).path("count").asInt()).as(opId).isEqualTo(1);
                } else {
                    assertThat(t.charges(opId)).as(opId).isEqualTo(1);
                }
            }
        }
        assertThat(count(a.jdbcUrl, "SELECT count(*) FROM executor.tool_call WHERE tenant_id = ? AND state <> 'COMMITTED'",
                one.tenant)).as("every call of shard a committed despite the kill and the 5xx").isZero();
        assertThat(one.injected("payments", "statusAfterApply")).as("the faults fired").isEqualTo(4);
    }

    @Test
    void anIntentSentToTheWrongShardIsRefusedThereAndNeverPlanned() throws Exception {
        String id = b.send(one.payments("misrouted", 700)); // shard a's tenant, on shard b's topic

        List<ToolResult> answers = await().atMost(WAIT).until(() -> b.results(id), r -> !r.isEmpty());
        assertThat(answers).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(ResultStatus.REJECTED);
            assertThat(r.error().code()).isEqualTo(Intake.TENANT_NOT_SERVED);
            assertThat(r.error().message()).contains("shard a");
        });
        assertThat(b.call(new CallScope(one.tenant, "payments", "charge", "misrouted"))).as("never planned").isEmpty();
        assertThat(one.charges(one.tenant + ":misrouted")).isZero();
    }

    /** One relay process with a source per shard database: each ledger's outbox reaches the results topic. */
    private static ServiceProcess startRelay() {
        int port = ServiceProcess.freePort();
        List<String> args = new ArrayList<>(List.of("--server.port=" + port));
        int i = 0;
        for (LoneExecutor shard : List.of(a, b)) {
            args.addAll(List.of("--toolonce.relay.sources[" + i + "].name=shard-" + i,
                    "--toolonce.relay.sources[" + i + "].jdbc-url=" + shard.jdbcUrl,
                    "--toolonce.relay.sources[" + i + "].slot=" + slot(shard),
                    "--toolonce.relay.sources[" + i + "].publication=toolonce_executor_outbox",
                    "--toolonce.relay.sources[" + i + "].table=executor.outbox_event"));
            i++;
        }
        return ServiceProcess.start("outbox-relay-shards", "dev.toolonce.relay.RelayApplication",
                        Map.of("KAFKA_BOOTSTRAP", stack.infra.kafkaBootstrap(), "TOOLONCE_AGENT_ENABLED", "false"), args)
                .awaitHttpOk("http://127.0.0.1:" + port + "/ready", Duration.ofSeconds(120));
    }

    private static String slot(LoneExecutor shard) {
        return shard.jdbcUrl.substring(shard.jdbcUrl.lastIndexOf('/') + 1).replaceAll("[^a-z0-9_]", "_") + "_executor";
    }

    private static String[] with(String[] base, String more) {
        List<String> all = new ArrayList<>(List.of(base));
        all.add(more);
        return all.toArray(String[]::new);
    }

    private static long count(String jdbcUrl, String sql, String tenant) throws Exception {
        try (Connection c = DriverManager.getConnection(jdbcUrl, "postgres", "");
             PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
