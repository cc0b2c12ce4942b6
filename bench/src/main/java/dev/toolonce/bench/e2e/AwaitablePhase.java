package dev.toolonce.bench.e2e;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.toolonce.agent.call.CallOutcome;
import dev.toolonce.agent.call.ToolCalls;
import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.bench.BenchTarget;
import dev.toolonce.bench.drive.BenchIntents;
import dev.toolonce.bench.report.AwaitableResult;
import dev.toolonce.bench.stats.Latencies;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.ToolIntent;
import java.time.Duration;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The awaitable call's happy path, as an agent's tool loop meets it: {@code calls} calls one after the other, each
 * {@code ToolCalls.call(intent, timeout)} of the bench's tool under a new key, timed from the call to its answer.
 */
public final class AwaitablePhase {
    private final BenchTarget target;
    private final BenchIntents intents;

    public AwaitablePhase(BenchTarget target, BenchIntents intents) {
        this.target = target;
        this.intents = intents;
    }

    public AwaitableResult run(String runId, int calls, Duration poll, Duration timeout) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(target.pgUrl());
        config.setUsername(System.getenv().getOrDefault("TOOLONCE_PG_USER", "postgres"));
        config.setPassword(System.getenv().getOrDefault("TOOLONCE_PG_PASSWORD", ""));
        config.setMaximumPoolSize(4);
        Latencies latencies = new Latencies();
        long unanswered = 0;
        long started = System.nanoTime();
        try (HikariDataSource ds = new HikariDataSource(config);
             ToolCalls toolCalls = new ToolCalls(ds, new TransactionTemplate(new DataSourceTransactionManager(ds)),
                     new IntentPublisher("agent", Contract.INTENTS_TOPIC, "/bench/awaitable", target.keyring()),
                     "agent", poll)) {
            for (int i = 0; i < calls; i++) {
                ToolIntent bench = intents.intent("await-" + runId + "-" + i, null);
                ToolIntent intent = ToolCalls.intent(bench.tenantId(), "bench-" + runId, bench.tool(),
                        bench.operation(), bench.idempotencyKey(), bench.arguments());
                long t0 = System.nanoTime();
                CallOutcome outcome = toolCalls.call(intent, timeout);
                if (outcome instanceof CallOutcome.Answered) {
                    latencies.add((System.nanoTime() - t0) / 1_000);
                } else {
                    unanswered++;
                }
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        return new AwaitableResult(calls, poll.toMillis(), (calls - unanswered) / seconds, latencies.summary(),
                unanswered);
    }
}
