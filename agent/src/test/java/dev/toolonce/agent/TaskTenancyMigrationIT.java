package dev.toolonce.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.testsupport.TestStack;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Agent migration V6 on a database that already holds tasks (issue 19): the task tables become keyed by tenant and
 * task id, each step takes its task's tenant, and afterwards two tenants can hold one task id.
 */
class TaskTenancyMigrationIT {

    @Test
    void existingTasksKeepTheirStepsUnderTheirTenantAndTwoTenantsCanThenShareAnId() {
        String url = TestStack.get().freshDatabase("tenancy");
        JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(url, "postgres", ""));
        migrate(url, "5");
        jdbc.update("INSERT INTO agent.agent_task (task_id, tenant_id, state) VALUES ('order-1', 'acme', 'RUNNING')");
        jdbc.update("""
                INSERT INTO agent.agent_task_step (task_id, step_id, position, tool, operation, arguments, idempotency_key,
                    compensable, irreversible, needs_approval, state)
                VALUES ('order-1', 'charge', 1, 'payments', 'charge', '{}', 'acme:order-1:charge:1', true, false, false,
                    'RUNNING')""");
        jdbc.update("""
                INSERT INTO agent.agent_step (task_id, step_id, tenant_id, tool, operation, idempotency_key,
                    intent_message_id) VALUES ('order-1', 'charge', 'acme', 'payments', 'charge', 'acme:order-1:charge:1', 'm-1')""");
        assertThatThrownBy(() -> jdbc.update("INSERT INTO agent.agent_task (task_id, tenant_id, state) "
                + "VALUES ('order-1', 'globex', 'RUNNING')")).as("before V6 an id is global")
                .isInstanceOf(DuplicateKeyException.class);

        migrate(url, "6");

        assertThat(jdbc.queryForObject("SELECT tenant_id FROM agent.agent_task_step WHERE task_id = 'order-1'",
                String.class)).isEqualTo("acme");
        jdbc.update("INSERT INTO agent.agent_task (task_id, tenant_id, state) VALUES ('order-1', 'globex', 'RUNNING')");
        jdbc.update("""
                INSERT INTO agent.agent_task_step (tenant_id, task_id, step_id, position, tool, operation, arguments,
                    idempotency_key, compensable, irreversible, needs_approval, state)
                VALUES ('globex', 'order-1', 'charge', 1, 'payments', 'charge', '{}', 'globex:order-1:charge:1', true,
                    false, false, 'PENDING')""");
        jdbc.update("""
                INSERT INTO agent.agent_step (task_id, step_id, tenant_id, tool, operation, idempotency_key,
                    intent_message_id) VALUES ('order-1', 'charge', 'globex', 'payments', 'charge', 'globex:order-1:charge:1', 'm-2')""");
        assertThat(jdbc.queryForList("SELECT tenant_id || ':' || state FROM agent.agent_task_step WHERE task_id = "
                + "'order-1' ORDER BY tenant_id", String.class)).containsExactly("acme:RUNNING", "globex:PENDING");
        assertThatThrownBy(() -> jdbc.update("""
                INSERT INTO agent.agent_task_step (tenant_id, task_id, step_id, position, tool, operation, arguments,
                    idempotency_key, compensable, irreversible, needs_approval, state)
                VALUES ('initech', 'order-1', 'charge', 1, 'payments', 'charge', '{}', 'k', true, false, false, 'PENDING')
                """)).as("a step needs its tenant's task").hasMessageContaining("foreign key");
    }

    private static void migrate(String url, String target) {
        Flyway.configure().dataSource(url, "postgres", "").schemas("agent").defaultSchema("agent")
                .locations(AgentSchema.MIGRATIONS).placeholders(Map.of("publication", "tenancy_pub"))
                .target(MigrationVersion.fromVersion(target)).load().migrate();
    }
}
