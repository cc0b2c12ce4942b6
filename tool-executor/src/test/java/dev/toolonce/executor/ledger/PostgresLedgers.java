package dev.toolonce.executor.ledger;

import dev.toolonce.testsupport.TestStack;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * Fresh PostgreSQL databases for the executor's store contract tests, one per test, on test-support's local server,
 * migrated by the executor's own migrations (from this module's classpath), so a store is tested against the DDL it
 * runs on in production.
 */
final class PostgresLedgers {
    static final String SCHEMA = "executor";

    private PostgresLedgers() {
    }

    /** A new database with the executor's schema migrated; {@code prefix} names it for a reader of pg_database. */
    static DataSource executor(String prefix) {
        String url = TestStack.get().freshDatabase(prefix);
        Flyway.configure().dataSource(url, "postgres", "").schemas(SCHEMA).defaultSchema(SCHEMA)
                .locations("classpath:db/migration/executor")
                .placeholders(Map.of("publication", "store_contract_pub")) // a database of its own: no clash
                .load().migrate();
        return TestStack.pooled(url);
    }
}
