package dev.toolonce.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.testsupport.TestStack;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Agent migration V7 on a database that already holds steps (issue 20): each {@code agent_step} row gets the part of
 * its task's step it is, read from the names the agent gave it, and the task step it belongs to; nothing else of a
 * row changes.
 */
class StepPartMigrationIT {

    @Test
    void existingRowsAreCarriedOverByTheirNames() {
        String url = TestStack.get().freshDatabase("step_part");
        JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(url, "postgres", ""));
        migrate(url, "6");
        row(jdbc, "charge", "charge", "COMMITTED", 1);
        row(jdbc, "charge.dry-run", "charge.dry-run", "COMMITTED", 1);
        row(jdbc, "charge.compensate", "charge.compensate", "COMPENSATED", 2);
        row(jdbc, "plain.compensate", "send", "PENDING", -1); // a plain intent whose id only looks like a part's
        row(jdbc, "undo", "charge.compensate", "PENDING", -1); // a compensation sent under an id of its own

        migrate(url, "7");

        assertThat(jdbc.queryForList("SELECT step_id || '|' || part || '|' || task_step_id || '|' || status || '|' "
                + "|| call_version FROM agent.agent_step ORDER BY step_id", String.class)).containsExactly(
                "charge|ACTION|charge|COMMITTED|1",
                "charge.compensate|COMPENSATION|charge|COMPENSATED|2",
                "charge.dry-run|DRY_RUN|charge|COMMITTED|1",
                "plain.compensate|ACTION|plain.compensate|PENDING|-1",
                "undo|COMPENSATION|undo|PENDING|-1");
        assertThatThrownBy(() -> jdbc.update("UPDATE agent.agent_step SET part = 'SOMETHING' WHERE step_id = 'charge'"))
                .as("a part is one of the three").hasMessageContaining("check constraint");
    }

    private static void row(JdbcTemplate jdbc, String stepId, String operation, String status, long version) {
        jdbc.update("""
                INSERT INTO agent.agent_step (task_id, step_id, tenant_id, tool, operation, idempotency_key,
                    intent_message_id, status, call_version) VALUES ('order-1', ?, 'acme', 'payments', ?, ?, ?, ?, ?)""",
                stepId, operation, "acme:order-1:" + stepId + ":1", "m-" + stepId, status, version);
    }

    private static void migrate(String url, String target) {
        Flyway.configure().dataSource(url, "postgres", "").schemas("agent").defaultSchema("agent")
                .locations(AgentSchema.MIGRATIONS).placeholders(Map.of("publication", "step_part_pub"))
                .target(MigrationVersion.fromVersion(target)).load().migrate();
    }
}
