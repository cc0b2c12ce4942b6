package dev.toolonce.jdbc;

import javax.sql.DataSource;

/** {@link CompensationStoreContract} on PostgreSQL 15, with the executor's own migrations. */
class PostgresCompensationStoreIT extends CompensationStoreContract {
    @Override
    protected DataSource newLedger() {
        return PostgresLedgers.executor("compensation_store");
    }
}
