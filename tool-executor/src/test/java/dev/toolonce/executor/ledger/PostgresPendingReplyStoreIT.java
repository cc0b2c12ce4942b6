package dev.toolonce.executor.ledger;

import javax.sql.DataSource;

/** {@link PendingReplyStoreContract} on PostgreSQL 15, with the executor's own migrations. */
class PostgresPendingReplyStoreIT extends PendingReplyStoreContract {
    @Override
    protected DataSource newLedger() {
        return PostgresLedgers.executor("pending_reply_store");
    }
}
