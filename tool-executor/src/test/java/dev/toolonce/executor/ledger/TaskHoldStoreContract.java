package dev.toolonce.executor.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link TaskHoldStore} for any database with the executor's DDL (docs/protocol.md §13): the newest version of a
 * task's state wins; an older or equal one, redelivered or reordered, changes nothing.
 */
abstract class TaskHoldStoreContract {
    private JdbcTemplate jdbc;
    private TaskHoldStore holds;

    /** A new database holding the executor's empty tables in {@link #schema()}. */
    protected abstract DataSource newLedger();

    protected String schema() {
        return PostgresLedgers.SCHEMA;
    }

    @BeforeEach
    void fresh() {
        jdbc = new JdbcTemplate(newLedger());
        holds = new TaskHoldStore(jdbc, schema());
    }

    private Boolean open(String tenant, String task) {
        return jdbc.queryForObject("SELECT open FROM " + schema() + ".task_hold WHERE tenant_id = ? AND task_id = ?",
                Boolean.class, tenant, task);
    }

    @Test
    void theNewestVersionWinsAndAnOlderOrEqualOneLoses() {
        assertThat(holds.apply("acme", "t-1", 3, true)).isTrue();
        assertThat(holds.apply("acme", "t-1", 7, false)).isTrue();

        assertThat(holds.apply("acme", "t-1", 5, true)).as("an older event arriving late").isFalse();
        assertThat(holds.apply("acme", "t-1", 7, true)).as("the same version again").isFalse();
        assertThat(open("acme", "t-1")).isFalse();
    }

    @Test
    void tasksOfTwoTenantsAreHeldApart() {
        holds.apply("acme", "t-1", 1, true);
        holds.apply("other", "t-1", 1, false);

        assertThat(open("acme", "t-1")).isTrue();
        assertThat(open("other", "t-1")).isFalse();
    }
}
