package dev.toolonce.executor.ledger;

import javax.sql.DataSource;

/** {@link ReviewAuditStoreContract} on PostgreSQL 15, with the executor's own migrations. */
class PostgresReviewAuditStoreIT extends ReviewAuditStoreContract {
    @Override
    protected DataSource newLedger() {
        return PostgresLedgers.executor("review_audit_store");
    }
}
