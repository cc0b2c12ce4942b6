package dev.toolonce.executor.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link ReviewAuditStore} for any database with the executor's DDL (docs/protocol.md §16): a resolution's row is
 * written with the caller's transaction or not at all, one row per resolution, and only for a known action.
 */
abstract class ReviewAuditStoreContract {
    private DataSource db;
    private JdbcTemplate jdbc;
    private ReviewAuditStore audit;

    /** A new database holding the executor's empty tables in {@link #schema()}. */
    protected abstract DataSource newLedger();

    protected String schema() {
        return PostgresLedgers.SCHEMA;
    }

    @BeforeEach
    void fresh() {
        db = newLedger();
        jdbc = new JdbcTemplate(db);
        audit = new ReviewAuditStore(jdbc, schema());
    }

    private int rows() {
        Integer n = jdbc.queryForObject("SELECT count(*) FROM " + schema() + ".review_audit", Integer.class);
        return n == null ? 0 : n;
    }

    @Test
    void eachResolutionIsOneRowAndARolledBackOneLeavesNone() {
        audit.record(1, "acme/payments/charge/k-1", "retry", null, "op", null, 2);
        audit.record(1, "acme/payments/charge/k-1", "commit", "ch_1", "op", "found it", 3);
        new TransactionTemplate(new DataSourceTransactionManager(db)).executeWithoutResult(s -> {
            audit.record(2, "acme/email/send/k-2", "fail", null, "op", null, 1);
            s.setRollbackOnly();
        });

        assertThat(rows()).isEqualTo(2);
        assertThat(jdbc.queryForList("SELECT action || ':' || fence FROM " + schema()
                + ".review_audit ORDER BY id", String.class)).containsExactly("retry:2", "commit:3");
    }

    @Test
    void anUnknownActionIsRefused() {
        assertThatThrownBy(() -> audit.record(1, "acme/payments/charge/k-1", "undo", null, "op", null, 1))
                .isInstanceOf(DataIntegrityViolationException.class);
        assertThat(rows()).isZero();
    }
}
