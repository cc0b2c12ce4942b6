package dev.toolonce.jdbc;

import dev.toolonce.testsupport.TestStack;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * Fresh PostgreSQL databases for the shared stores' contract tests, one per test, on test-support's local server.
 * The tables come from the migrations of the services that own them (read from their source trees), so a store is
 * tested against the DDL it runs on in production.
 */
final class PostgresLedgers {
    static final String SCHEMA = "executor";
    static final String EXECUTOR_MIGRATIONS = "tool-executor/src/main/resources/db/migration/executor";
    static final String AGENT_MIGRATIONS = "agent/src/main/resources/dev/toolonce/agent/db/migration";

    private PostgresLedgers() {
    }

    /** A new database with the executor's schema migrated; {@code prefix} names it for a reader of pg_database. */
    static DataSource executor(String prefix) {
        String url = TestStack.get().freshDatabase(prefix);
        migrate(url, SCHEMA, EXECUTOR_MIGRATIONS, "store_contract_pub"); // a database of its own: no clash
        return TestStack.pooled(url);
    }

    /**
     * Migrates {@code schema} of the database at {@code url} with the migrations in {@code dir} (relative to the
     * repository root); {@code publication} names the outbox's publication, unique within the database.
     */
    static void migrate(String url, String schema, String dir, String publication) {
        String migrations = TestStack.get().repoRoot().resolve(dir).toString();
        Flyway.configure().dataSource(url, "postgres", "").schemas(schema).defaultSchema(schema)
                .locations("filesystem:" + migrations).placeholders(Map.of("publication", publication))
                .load().migrate();
    }
}
