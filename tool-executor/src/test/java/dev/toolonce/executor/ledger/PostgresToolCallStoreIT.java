package dev.toolonce.executor.ledger;

import javax.sql.DataSource;

/** {@link ToolCallStoreContract} on PostgreSQL 15, with the executor's own migrations. */
class PostgresToolCallStoreIT extends ToolCallStoreContract {
    @Override
    protected DataSource newLedger() {
        return PostgresLedgers.executor("tool_call_store");
    }
}
