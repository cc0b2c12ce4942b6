package dev.toolonce.jdbc;

import javax.sql.DataSource;

/** {@link OutboxStoreContract} on PostgreSQL 15, with the executor's outbox table. */
class PostgresOutboxStoreIT extends OutboxStoreContract {
    @Override
    protected DataSource newDatabase() {
        return PostgresLedgers.executor("outbox_store");
    }
}
