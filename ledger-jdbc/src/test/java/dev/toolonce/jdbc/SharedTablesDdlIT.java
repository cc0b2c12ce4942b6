package dev.toolonce.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.testsupport.TestStack;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The inbox and outbox DDL is written twice — in the executor's V1 and the agent's V1 — because applied Flyway
 * migrations cannot change (docs/protocol.md §20). {@link InboxStore} and {@link OutboxStore} serve both, so the two
 * copies must stay one table definition: this migrates both services' schemas into one database and compares what
 * PostgreSQL made of them — columns with their types, nullability and defaults, constraints, indexes and the
 * outbox's publication. A future migration that changes one copy fails here until the other gets the same change.
 */
class SharedTablesDdlIT {
    private static final List<String> SHARED_TABLES = List.of("inbox_message", "outbox_event");

    private JdbcTemplate jdbc;

    @BeforeEach
    void bothSchemas() {
        String url = TestStack.get().freshDatabase("shared_ddl");
        PostgresLedgers.migrate(url, "executor", PostgresLedgers.EXECUTOR_MIGRATIONS, "shared_ddl_executor_pub");
        PostgresLedgers.migrate(url, "agent", PostgresLedgers.AGENT_MIGRATIONS, "shared_ddl_agent_pub");
        jdbc = new JdbcTemplate(new DriverManagerDataSource(url, "postgres", ""));
    }

    @Test
    void theExecutorsAndTheAgentsInboxAndOutboxTablesAreDefinedAlike() {
        for (String table : SHARED_TABLES) {
            List<String> executor = shape("executor", table);
            assertThat(executor).as(table + " exists in the executor's schema").isNotEmpty();
            assertThat(shape("agent", table)).as("agent." + table + " against executor." + table)
                    .containsExactlyElementsOf(executor);
        }
    }

    @Test
    void theComparisonSeesADefaultANullabilityAndAnIndexThatDiffer() {
        // The negative control: each change to one copy alone shows up.
        jdbc.execute("ALTER TABLE agent.inbox_message ALTER COLUMN topic SET NOT NULL");
        assertThat(shape("agent", "inbox_message")).isNotEqualTo(shape("executor", "inbox_message"));
        jdbc.execute("ALTER TABLE agent.inbox_message ALTER COLUMN topic DROP NOT NULL");
        assertThat(shape("agent", "inbox_message")).isEqualTo(shape("executor", "inbox_message"));

        jdbc.execute("ALTER TABLE agent.outbox_event ALTER COLUMN created_at SET DEFAULT now()");
        assertThat(shape("agent", "outbox_event")).isNotEqualTo(shape("executor", "outbox_event"));
        jdbc.execute("ALTER TABLE agent.outbox_event ALTER COLUMN created_at SET DEFAULT clock_timestamp()");
        jdbc.execute("CREATE INDEX outbox_event_source ON agent.outbox_event (source)");
        assertThat(shape("agent", "outbox_event")).isNotEqualTo(shape("executor", "outbox_event"));
    }

    /** What PostgreSQL knows of a table, with the schema name taken out: one line per column, constraint, index. */
    private List<String> shape(String schema, String table) {
        List<String> lines = new ArrayList<>(jdbc.queryForList("""
                SELECT 'column ' || ordinal_position || ' ' || column_name || ' ' || data_type
                       || ' nullable=' || is_nullable || ' default=' || coalesce(column_default, '-')
                       || ' identity=' || is_identity
                  FROM information_schema.columns
                 WHERE table_schema = ? AND table_name = ?
                 ORDER BY ordinal_position
                """, String.class, schema, table));
        lines.addAll(jdbc.queryForList("""
                SELECT 'constraint ' || c.conname || ' ' || pg_get_constraintdef(c.oid)
                  FROM pg_constraint c
                  JOIN pg_class t ON t.oid = c.conrelid
                  JOIN pg_namespace n ON n.oid = t.relnamespace
                 WHERE n.nspname = ? AND t.relname = ?
                 ORDER BY c.conname
                """, String.class, schema, table));
        lines.addAll(jdbc.queryForList("""
                SELECT 'index ' || replace(indexdef, ' ' || schemaname || '.', ' ')
                  FROM pg_indexes WHERE schemaname = ? AND tablename = ?
                 ORDER BY indexname
                """, String.class, schema, table));
        lines.addAll(jdbc.queryForList("""
                SELECT 'published insert=' || p.pubinsert || ' update=' || p.pubupdate || ' delete=' || p.pubdelete
                       || ' truncate=' || p.pubtruncate
                  FROM pg_publication p JOIN pg_publication_tables pt ON pt.pubname = p.pubname
                 WHERE pt.schemaname = ? AND pt.tablename = ?
                """, String.class, schema, table));
        return lines;
    }
}
