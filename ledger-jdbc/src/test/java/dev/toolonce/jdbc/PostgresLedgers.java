package dev.toolonce.jdbc;

import dev.toolonce.testsupport.TestStack;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Fresh PostgreSQL databases for the store contract tests, one per test, on test-support's local server. The
 * tables come from the migrations of the service that owns them (the executor's, read from its source tree),
 * so a store is tested against the DDL it runs on in production.
 */
final class PostgresLedgers {
    static final String SCHEMA = "executor";

    private PostgresLedgers() {
    }

    /** How many sessions of this database wait on a lock (pg_stat_activity): proof that a racer is blocked. */
    static int waitingOnALock(DataSource db) {
        Integer n = new JdbcTemplate(db).queryForObject("SELECT count(*) FROM pg_stat_activity "
                + "WHERE datname = current_database() AND wait_event_type = 'Lock'", Integer.class);
        return n == null ? 0 : n;
    }

    /** A new database with the executor's schema migrated; {@code prefix} names it for a reader of pg_database. */
    static DataSource executor(String prefix) {
        TestStack stack = TestStack.get();
        String url = stack.freshDatabase(prefix);
        String migrations = stack.repoRoot().resolve("tool-executor/src/main/resources/db/migration/executor").toString();
        Flyway.configure().dataSource(url, "postgres", "").schemas(SCHEMA).defaultSchema(SCHEMA)
                .locations("filesystem:" + migrations)
                .placeholders(Map.of("publication", "store_contract_pub")) // a database of its own: no clash
                .load().migrate();
        return new DriverManagerDataSource(url, "postgres", "");
    }
}
