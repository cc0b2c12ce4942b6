package dev.toolonce.demo;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.agent.task.DryRunCatalog;
import dev.toolonce.agent.task.Plan;
import dev.toolonce.agent.task.StepSpec;
import dev.toolonce.agent.task.TaskEngine;
import dev.toolonce.agent.task.TaskEvents;
import dev.toolonce.agent.task.TaskState;
import dev.toolonce.agent.task.TaskStore;
import dev.toolonce.schemas.Contract;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The demo's sagas (docs/agent-tasks.md): "reserve a ticket → charge a payment → send a confirmation email", run many
 * times through the agent library against the running stack, with the sandbox's faults on. Every charge is checked
 * first by the payment tool's dry run (declared in the executor's tool YAML); one in four is refused by it (an
 * invalid currency), before anything is charged, so its task must compensate the reservation. The verdict is read
 * from the agent's checkpoints and the executor's ledger.
 */
final class Sagas {
    private final TaskEngine tasks;
    private final JdbcTemplate jdbc;
    private final String tenant;
    private final String run;
    private final List<String> ids = new ArrayList<>();

    /** Tasks by final state, and the compensations the executor ran for them. */
    record Summary(int sagas, Map<String, Long> byState, long compensationsStarted, long compensationsCommitted,
                   long open, long dryRuns, long dryRunsRefused) {
        double compensationSuccessRate() {
            return compensationsStarted == 0 ? 1.0 : (double) compensationsCommitted / compensationsStarted;
        }
    }

    Sagas(DemoConfig config, String tenant, String run) {
        DriverManagerDataSource ds = new DriverManagerDataSource(config.pgUrl(), "postgres", "");
        this.jdbc = new JdbcTemplate(ds);
        this.tenant = tenant;
        this.run = run;
        this.tasks = new TaskEngine(new TaskStore(jdbc, "agent"),
                new IntentPublisher("agent", Contract.INTENTS_TOPIC, "/agents/demo", config.keyring()),
                new TaskEvents(jdbc, "agent", TaskEvents.DEFAULT_TOPIC, "/agents/demo", config.keyring()), ds,
                new TransactionTemplate(new DataSourceTransactionManager(ds)),
                DryRunCatalog.of(List.of("payments/charge"))); // payments.operations.charge.dry-run in the executor
    }

    /** Submits {@code n} sagas; every fourth one's charge will be refused by its dry run. */
    void submit(int n) {
        for (int i = 0; i < n; i++) {
            String task = run + "-saga-" + i;
            String currency = i % 4 == 3 ? "12" : "EUR";
            tasks.submit(Plan.of(tenant, task,
                    StepSpec.of("reserve", "tickets", "create", args(task, "reserve").put("title", "seat " + i))
                            .withCompensation(),
                    StepSpec.of("charge", "payments", "charge", args(task, "charge").put("amount", 1000 + i)
                            .put("currency", currency)).withDryRun().withCompensation(),
                    StepSpec.of("confirm", "email", "send", args(task, "confirm").put("to", "guest" + i + "@example.com")
                            .put("subject", "your seat")).asIrreversible()));
            ids.add(task);
        }
    }

    /** Waits until every saga is final or in review, or the deadline passes. @return how many are still open */
    long await(Instant deadline) throws InterruptedException {
        long open = open();
        while (open > 0 && Instant.now().isBefore(deadline)) {
            Thread.sleep(500);
            open = open();
        }
        return open;
    }

    Summary summary() {
        Map<String, Long> byState = new TreeMap<>(ids.stream().map(id -> tasks.find(tenant, id).orElseThrow().state().name())
                .collect(Collectors.groupingBy(s -> s, Collectors.counting())));
        Long started = jdbc.queryForObject("SELECT count(*) FROM executor.tool_call WHERE tenant_id = ? "
                + "AND operation LIKE '%.compensate' AND task_id LIKE ?", Long.class, tenant, run + "-saga-%");
        Long committed = jdbc.queryForObject("SELECT count(*) FROM executor.tool_call WHERE tenant_id = ? "
                + "AND operation LIKE '%.compensate' AND task_id LIKE ? AND state = 'COMMITTED'", Long.class, tenant,
                run + "-saga-%");
        Long dryRuns = jdbc.queryForObject("SELECT count(*) FROM executor.tool_call WHERE tenant_id = ? "
                + "AND operation LIKE '%.dry-run' AND task_id LIKE ?", Long.class, tenant, run + "-saga-%");
        Long refused = jdbc.queryForObject("SELECT count(*) FROM executor.tool_call WHERE tenant_id = ? "
                + "AND operation LIKE '%.dry-run' AND task_id LIKE ? AND state = 'FAILED_FINAL'", Long.class, tenant,
                run + "-saga-%");
        return new Summary(ids.size(), byState, started == null ? 0 : started, committed == null ? 0 : committed, open(),
                dryRuns == null ? 0 : dryRuns, refused == null ? 0 : refused);
    }

    private long open() {
        return ids.stream().map(id -> tasks.find(tenant, id).orElseThrow().state())
                .filter(s -> !s.isFinal() && s != TaskState.NEEDS_REVIEW).count();
    }

    /** opIds carry the run's operation prefix, so the demo's duplicate count covers the sagas' effects too. */
    private ObjectNode args(String task, String step) {
        return JsonNodeFactory.instance.objectNode().put("opId", run + "-op-" + task + "-" + step);
    }

    static Duration timeout(DemoConfig config) {
        return config.timeout();
    }
}
