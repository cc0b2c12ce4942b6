package dev.toolonce.agent;

/**
 * Where the agent schema's Flyway migrations live on the classpath.
 *
 * <p>They are deliberately <em>not</em> under {@code db/migration}: Spring Boot's own Flyway scans
 * {@code classpath:db/migration} recursively by default, so an application that uses Flyway for its own tables would
 * pick the agent's migrations up as its own — a second version 1, and a {@code ${publication}} placeholder it has no
 * value for — and fail to start. Only the agent's own Flyway (the starter's {@code AgentMigrations}, or a test's) reads
 * this location, into a history table of the agent schema.
 */
public final class AgentSchema {
    /** The Flyway location of the agent schema's migrations; they need the placeholder {@code publication}. */
    public static final String MIGRATIONS = "classpath:dev/toolonce/agent/db/migration";

    private AgentSchema() {
    }
}
