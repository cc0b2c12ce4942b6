package dev.toolonce.boot.agent;

import dev.toolonce.agent.AgentSchema;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * Creates and migrates the agent's schema with the agent library's own migrations ({@link AgentSchema#MIGRATIONS}),
 * in a Flyway history of that schema — independent of whatever Flyway the application runs for its own tables, which
 * keeps its {@code db/migration} to itself (the agent's migrations lie outside it). Runs once, when the bean is
 * created, before anything uses the schema.
 */
public final class AgentMigrations {
    private final int applied;

    public AgentMigrations(DataSource dataSource, AgentProperties p) {
        this.applied = Flyway.configure().dataSource(dataSource).schemas(p.schema()).defaultSchema(p.schema())
                .locations(AgentSchema.MIGRATIONS).placeholders(Map.of("publication", p.publication()))
                .load().migrate().migrationsExecuted;
    }

    /** How many migrations this start applied. */
    public int applied() {
        return applied;
    }
}
