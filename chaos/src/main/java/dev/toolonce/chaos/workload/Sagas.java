package dev.toolonce.chaos.workload;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.agent.task.DryRunCatalog;
import dev.toolonce.agent.task.Plan;
import dev.toolonce.agent.task.StepSpec;
import dev.toolonce.agent.task.TaskEngine;
import dev.toolonce.agent.task.TaskEvents;
import dev.toolonce.agent.task.TaskStore;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.signing.Keyring;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The sagas of the workload (docs/agent-tasks.md): reserve a ticket → charge a payment, checked first by its dry
 * run → send a confirmation email, submitted through the agent library's {@link TaskEngine}; the stack's result
 * consumer advances them as the answers arrive. Every fourth charge carries an invalid currency, so its dry run
 * refuses it before anything is charged and the task must compensate the reservation. Every step's arguments carry
 * an opId of the round's tenant ({@code <tenant>:saga-<seq>:<step>}), so the oracle's duplicate count at the sandbox
 * ledger covers the sagas' effects as it covers single calls.
 */
final class Sagas {
    private final TaskEngine tasks;

    /** @param jdbcUrl the stack's database, where the agent schema lives */
    Sagas(String jdbcUrl, Keyring keyring) {
        DriverManagerDataSource ds = new DriverManagerDataSource(jdbcUrl, "postgres", "");
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        tasks = new TaskEngine(new TaskStore(jdbc, "agent"),
                new IntentPublisher("agent", Contract.INTENTS_TOPIC, "/agents/chaos", keyring),
                new TaskEvents(jdbc, "agent", TaskEvents.DEFAULT_TOPIC, "/agents/chaos", keyring), ds,
                new TransactionTemplate(new DataSourceTransactionManager(ds)),
                DryRunCatalog.of(List.of("payments/charge"))); // the executor's payments.operations.charge.dry-run
    }

    /**
     * Submits saga {@code seq} of {@code tenant}.
     *
     * @throws RuntimeException when PostgreSQL did not take it (down or restarting): the task may or may not exist;
     *         the oracle judges the tasks it finds in the agent schema
     */
    void submit(String tenant, long seq) {
        String task = tenant + "-saga-" + seq;
        String currency = (seq / 16) % 4 == 3 ? "12" : "EUR";
        tasks.submit(Plan.of(tenant, task,
                StepSpec.of("reserve", "tickets", "create", args(tenant, seq, "reserve").put("title", "seat " + seq))
                        .withCompensation(),
                StepSpec.of("charge", "payments", "charge", args(tenant, seq, "charge").put("amount", 1000 + seq % 500)
                        .put("currency", currency)).withDryRun().withCompensation(),
                StepSpec.of("confirm", "email", "send", args(tenant, seq, "confirm").put("to", "guest@example.com")
                        .put("subject", "your seat " + seq)).asIrreversible()));
    }

    private static ObjectNode args(String tenant, long seq, String step) {
        return JsonNodeFactory.instance.objectNode().put("opId", tenant + ":saga-" + seq + ":" + step);
    }
}
