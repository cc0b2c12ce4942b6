package dev.toolonce.agent.results;

import dev.toolonce.agent.AgentSchema;
import dev.toolonce.testsupport.TestStack;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/** {@link StepResultsContract} on PostgreSQL 15, with the agent's own migrations. */
class PostgresStepResultsIT extends StepResultsContract {
    @Override
    protected DataSource newAgentDatabase() {
        String url = TestStack.get().freshDatabase("step_results");
        Flyway.configure().dataSource(url, "postgres", "").schemas(schema()).defaultSchema(schema())
                .locations(AgentSchema.MIGRATIONS).placeholders(Map.of("publication", "step_results_pub"))
                .load().migrate();
        return TestStack.pooled(url);
    }
}
