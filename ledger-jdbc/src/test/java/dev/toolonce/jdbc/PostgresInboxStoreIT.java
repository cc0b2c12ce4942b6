package dev.toolonce.jdbc;

import javax.sql.DataSource;

/** {@link InboxStoreContract} on PostgreSQL 15, with the executor's inbox table. */
class PostgresInboxStoreIT extends InboxStoreContract {
    @Override
    protected DataSource newDatabase() {
        return PostgresLedgers.executor("inbox_store");
    }
}
