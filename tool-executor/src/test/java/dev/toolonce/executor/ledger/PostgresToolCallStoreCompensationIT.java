package dev.toolonce.executor.ledger;

import javax.sql.DataSource;

/** {@link ToolCallStoreCompensationContract} on PostgreSQL 15, with the executor's own migrations. */
class PostgresToolCallStoreCompensationIT extends ToolCallStoreCompensationContract {
    @Override
    protected DataSource newLedger() {
        return PostgresLedgers.executor("tool_call_compensation");
    }
}
