package dev.toolonce.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.testsupport.TestStack;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Agent migration V8 on a database that already holds tasks and steps (issue 20, point 2): {@code agent_step} becomes
 * the one record of each call's outcome, {@code agent_task_step} keeps the plan and the saga, and the view
 * {@code agent_task_step_outcome} shows each task step with its calls' outcomes as the old columns did. Every row of
 * both tables carries over; an outcome only the task step held (a second dry run, whose row the old key refused) gets
 * the {@code agent_step} row it lacked; burst steps without a task are untouched.
 */
class OneStepModelMigrationIT {

    @Test
    void rowsOfBothStepTablesCarryOverIntoOneModel() {
        String url = TestStack.get().freshDatabase("one_step_model");
        JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(url, "postgres", ""));
        migrate(url, "7");
        jdbc.update("INSERT INTO agent.agent_task (task_id, tenant_id, state) VALUES ('t1', 'acme', 'RUNNING')");
        // 1: committed, both tables agree
        taskStep(jdbc, "1", 1, "COMMITTED", 1, 1, "ch_1", -1, null, -1, false, null);
        call(jdbc, "1", "charge", "acme:t1:1:1", "ACTION", "COMMITTED", 1, "ch_1");
        // 2: compensated; its compensation's outcome was in the task step's compensation columns and in its own row
        taskStep(jdbc, "2", 2, "COMPENSATED", 1, 1, "tk_2", 2, "re_2", -1, false, null);
        call(jdbc, "2", "charge", "acme:t1:2:1", "ACTION", "COMMITTED", 1, "tk_2");
        call(jdbc, "2.compensate", "charge.compensate", "acme:t1:2:1", "COMPENSATION", "COMMITTED", 2, "re_2");
        // 3: a dry run of changed arguments (arg version 2) passed; the old key refused its agent_step row
        taskStep(jdbc, "3", 3, "PENDING", 2, -1, null, -1, null, 1, true, "acme:t1:3:2");
        call(jdbc, "3.dry-run", "charge.dry-run", "acme:t1:3.dry-run:1", "DRY_RUN", "COMMITTED", 1, null);
        // 4: the old disagreement — the engine failed the step on a rejection agent_step logged as not its own
        taskStep(jdbc, "4", 4, "FAILED", 1, -1, null, -1, null, -1, false, null);
        call(jdbc, "4", "charge", "acme:t1:4:1", "ACTION", "PENDING", -1, null);
        // a burst intent published without a task
        jdbc.update("""
                INSERT INTO agent.agent_step (task_id, step_id, tenant_id, tool, operation, idempotency_key,
                    intent_message_id, status, call_version, part, task_step_id)
                VALUES ('burst-1', 's1', 'acme', 'payments', 'charge', 'k-burst', 'm-burst', 'COMMITTED', 1, 'ACTION', 's1')
                """);

        migrate(url, "8");

        assertThat(jdbc.queryForList("""
                SELECT task_id || '|' || step_id || '|' || part || '|' || idempotency_key || '|' || status || '|'
                       || call_version || '|' || coalesce(external_object_id, '-') || '|' || intent_message_id || '|'
                       || array_to_string(intent_message_ids, ',')
                  FROM agent.agent_step ORDER BY task_id, step_id, idempotency_key""", String.class)).containsExactly(
                "burst-1|s1|ACTION|k-burst|COMMITTED|1|-|m-burst|m-burst",
                "t1|1|ACTION|acme:t1:1:1|COMMITTED|1|ch_1|m-1|m-1",
                "t1|2|ACTION|acme:t1:2:1|COMMITTED|1|tk_2|m-2|m-2",
                "t1|2.compensate|COMPENSATION|acme:t1:2:1|COMMITTED|2|re_2|m-2.compensate|m-2.compensate",
                "t1|3.dry-run|DRY_RUN|acme:t1:3.dry-run:1|COMMITTED|1|-|m-3.dry-run|m-3.dry-run",
                "t1|3.dry-run|DRY_RUN|acme:t1:3.dry-run:2|COMMITTED|1|-|migrated|",
                "t1|4|ACTION|acme:t1:4:1|PENDING|-1|-|m-4|m-4");

        assertThat(jdbc.queryForList("""
                SELECT step_id || '|' || state || '|' || call_version || '|' || coalesce(external_object_id, '-') || '|'
                       || compensation_version || '|' || coalesce(compensation_external_id, '-') || '|'
                       || dry_run_version || '|' || dry_run_key || '|' || coalesce(error_code, '-')
                  FROM agent.agent_task_step_outcome ORDER BY position""", String.class)).as("the saga reads what it did")
                .containsExactly(
                        "1|COMMITTED|1|ch_1|-1|-|-1|acme:t1:1.dry-run:1|-",
                        "2|COMPENSATED|1|tk_2|2|re_2|-1|acme:t1:2.dry-run:1|-",
                        "3|PENDING|-1|-|-1|-|1|acme:t1:3.dry-run:2|-",
                        "4|FAILED|-1|-|-1|-|-1|acme:t1:4.dry-run:1|TOOL_REJECTED");

        assertThat(jdbc.queryForList("""
                SELECT column_name FROM information_schema.columns
                 WHERE table_schema = 'agent' AND table_name = 'agent_task_step'""", String.class))
                .as("the task step keeps no outcome of a call")
                .doesNotContain("call_version", "compensation_version", "dry_run_version", "external_object_id",
                        "result", "compensation_external_id")
                .contains("state", "dry_run_passed_key", "error_code", "error_message", "publishes");
    }

    private static void taskStep(JdbcTemplate jdbc, String stepId, int position, String state, int argVersion,
                                 long callVersion, String externalId, long compensationVersion, String compensationId,
                                 long dryRunVersion, boolean dryRun, String dryRunPassedKey) {
        jdbc.update("""
                INSERT INTO agent.agent_task_step (tenant_id, task_id, step_id, position, tool, operation, arguments,
                    arg_version, idempotency_key, compensable, irreversible, needs_approval, state, call_version,
                    external_object_id, compensation_version, compensation_external_id, dry_run, dry_run_version,
                    dry_run_passed_key, error_code)
                VALUES ('acme', 't1', ?, ?, 'payments', 'charge', '{}', ?, ?, true, false, false, ?, ?, ?, ?, ?, ?, ?, ?,
                    ?)""", stepId, position, argVersion, "acme:t1:" + stepId + ":" + argVersion, state, callVersion,
                externalId, compensationVersion, compensationId, dryRun, dryRunVersion, dryRunPassedKey,
                "FAILED".equals(state) ? "TOOL_REJECTED" : null);
    }

    private static void call(JdbcTemplate jdbc, String stepId, String operation, String key, String part,
                             String status, long version, String externalId) {
        jdbc.update("""
                INSERT INTO agent.agent_step (task_id, step_id, tenant_id, tool, operation, idempotency_key,
                    intent_message_id, status, call_version, external_object_id, part, task_step_id)
                VALUES ('t1', ?, 'acme', 'payments', ?, ?, ?, ?, ?, ?, ?, ?)""", stepId, operation, key, "m-" + stepId,
                status, version, externalId, part, stepId.replaceAll("\\..*", ""));
    }

    private static void migrate(String url, String target) {
        Flyway.configure().dataSource(url, "postgres", "").schemas("agent").defaultSchema("agent")
                .locations(AgentSchema.MIGRATIONS).placeholders(Map.of("publication", "one_step_pub"))
                .target(MigrationVersion.fromVersion(target)).load().migrate();
    }
}
