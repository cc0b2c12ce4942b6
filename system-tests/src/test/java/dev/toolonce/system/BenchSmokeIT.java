package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.bench.Bench;
import dev.toolonce.bench.BenchOptions;
import dev.toolonce.bench.report.JsonReport;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.TestTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ./toolonce bench --smoke} against the system-test stack: every phase runs, counts something, and
 * loses nothing. Correctness only: the figures of a shared test machine mean nothing, so no speed is asserted.
 */
class BenchSmokeIT {
    private static final List<String> SERVICES = List.of("sandbox-tools", "tool-executor", "inbox-consumer", "outbox-relay");

    @Test
    void smokeRunHasEveryPhaseWithCountsAndLosesNothing(@TempDir Path dir) throws Exception {
        SystemStack s = SystemStack.get();
        Path json = dir.resolve("bench.json");
        List<String> args = new ArrayList<>(List.of("--smoke", "--json", json.toString(),
                "--pg-url", s.jdbcUrl, "--kafka", s.infra.kafkaBootstrap(), "--relay-url", s.relayUrl,
                "--run-dir", Path.of(System.getProperty("user.dir"), "target", "test-stack", "run").toString(),
                "--token", TestTokens.admin(), "--keyring", TestKeys.file().toString()));
        ServiceProcess[] processes = {s.sandbox, s.executor, s.consumer, s.relay};
        for (int i = 0; i < processes.length; i++) {
            args.addAll(List.of("--pid", SERVICES.get(i) + "=" + processes[i].pid()));
        }

        JsonReport.write(Bench.run(BenchOptions.parse(args, Map.of())), json);
        JsonNode r = JsonMapper.builder().build().readTree(Files.readString(json));

        assertThat(r.path("lost").asLong()).isZero();
        assertThat(r.path("warmup").path("intents").asLong()).as("warmed before the first timed phase").isEqualTo(100);
        assertThat(r.path("warmup").path("unanswered").asLong()).isZero();
        assertThat(r.path("commit").path("commits").asLong()).isPositive();
        assertThat(r.path("relay").path("runs")).hasSize(2).allSatisfy(run -> {
            assertThat(run.path("sent").asLong()).isPositive();
            assertThat(run.path("received").asLong()).isEqualTo(run.path("sent").asLong());
            assertThat(run.path("relayLatency").path("count").asLong()).isPositive();
        });
        JsonNode backlog = r.path("relay").path("backlog");
        assertThat(backlog.path("received").asLong()).isEqualTo(backlog.path("events").asLong()).isPositive();
        JsonNode burst = r.path("burst");
        assertThat(burst.path("results").asLong()).isEqualTo(burst.path("intents").asLong()).isPositive();
        assertThat(burst.path("lost").asLong()).isZero();
        List<String> measured = new ArrayList<>();
        burst.path("resources").forEach(u -> measured.add(u.path("component").asString()));
        assertThat(measured).containsAll(SERVICES);
        assertThat(burst.path("resources")).as("the walsenders of the relays' slots, shown apart from the backends")
                .anySatisfy(u -> {
                    assertThat(u.path("component").asString()).isEqualTo("postgres walsenders");
                    assertThat(u.path("processes").asInt()).isPositive();
                });
        // the test stack preloads pg_stat_statements, as the local stack does
        JsonNode sql = burst.path("statements");
        assertThat(sql.path("note").isNull() || sql.path("note").isMissingNode()).as(sql.toString()).isTrue();
        assertThat(sql.path("statementsPerCall").asDouble()).isPositive();
        assertThat(sql.path("commitsPerCall").asDouble()).isPositive();
        List<String> top = new ArrayList<>();
        sql.path("top").forEach(t -> top.add(t.path("query").asString()));
        assertThat(top).as("each result updates the step the burst opened: the consumer's production path")
                .anySatisfy(q -> assertThat(q).contains("UPDATE").contains("agent_step"));
        assertThat(r.path("loads").path("steps")).hasSize(2).allSatisfy(step -> {
            assertThat(step.path("completed").asLong()).isEqualTo(step.path("sent").asLong()).isPositive();
            assertThat(step.path("lost").asLong()).isZero();
            assertThat(step.path("hops").path("back").path("count").asLong())
                    .as("every answered step's call found by its scope, its latency split into segments")
                    .isEqualTo(step.path("completed").asLong());
        });
        JsonNode awaitable = r.path("awaitable");
        assertThat(awaitable.path("calls").asInt()).isEqualTo(10);
        assertThat(awaitable.path("unanswered").asLong()).isZero();
        assertThat(awaitable.path("latency").path("count").asLong()).as("every awaitable call answered and timed")
                .isEqualTo(10);
    }
}
