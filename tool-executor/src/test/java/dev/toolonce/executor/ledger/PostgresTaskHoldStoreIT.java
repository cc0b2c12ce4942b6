package dev.toolonce.executor.ledger;

import javax.sql.DataSource;

/** {@link TaskHoldStoreContract} on PostgreSQL 15, with the executor's own migrations. */
class PostgresTaskHoldStoreIT extends TaskHoldStoreContract {
    @Override
    protected DataSource newLedger() {
        return PostgresLedgers.executor("task_hold_store");
    }
}
