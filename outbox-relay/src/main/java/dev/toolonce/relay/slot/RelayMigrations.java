package dev.toolonce.relay.slot;

import org.flywaydb.core.Flyway;

import dev.toolonce.relay.config.RelayProperties.Source;

/**
 * Creates the relay's own tables ({@code toolonce_relay.offsets}, {@code toolonce_relay.heartbeat})
 * in a source database with Flyway, in schema {@value #SCHEMA} with its own history table, so it
 * never touches the migrations of the service that owns the database. Idempotent; concurrent
 * runs against one database are serialised by Flyway's lock.
 */
public final class RelayMigrations {

    /** Schema of the relay's tables in every source database. */
    public static final String SCHEMA = "toolonce_relay";
    static final String HISTORY_TABLE = "relay_schema_history";
    static final String LOCATION = "classpath:db/migration/relay";

    private RelayMigrations() {
    }

    /**
     * Applies pending migrations to the source's database.
     *
     * @param source the source; its database must be reachable
     * @throws org.flywaydb.core.api.FlywayException when the database is unreachable or a
     *         migration fails
     */
    public static void migrate(Source source) {
        Flyway.configure(RelayMigrations.class.getClassLoader())
                .dataSource(source.jdbcUrl(), source.username(), source.password())
                .schemas(SCHEMA)
                .defaultSchema(SCHEMA)
                .table(HISTORY_TABLE)
                .locations(LOCATION)
                .connectRetries(0)
                .load()
                .migrate();
    }
}
