package dev.toolonce.executor.ledger;

import javax.sql.DataSource;

/** {@link PausedToolStoreContract} on PostgreSQL 15, with the executor's own migrations. */
class PostgresPausedToolStoreIT extends PausedToolStoreContract {
    @Override
    protected DataSource newLedger() {
        return PostgresLedgers.executor("paused_tool_store");
    }
}
