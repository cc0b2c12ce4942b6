package dev.toolonce.boot.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.testsupport.AgentMigrationScripts;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.TestStack;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Issue 18, point 1: an application whose own Flyway runs with Spring Boot's defaults ({@code classpath:db/migration},
 * scanned recursively, here {@code V1__app_orders.sql}) starts with the starter beside it. Before, Boot's Flyway found
 * the starter's migrations under {@code db/migration/agent} too: "more than one migration with version 1".
 */
class StarterBesideAppFlywayIT {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class AppWithFlyway {
    }

    @Test
    void theApplicationsFlywayAndTheAgentsMigrationsEachKeepTheirOwnHistory() {
        TestStack stack = TestStack.get();
        String db = stack.freshDatabase("app_flyway");
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(AppWithFlyway.class)
                .web(WebApplicationType.NONE).properties(Map.of(
                        "spring.datasource.url", db, "spring.datasource.username", "postgres",
                        "spring.datasource.password", "", "spring.kafka.bootstrap-servers", stack.kafkaBootstrap(),
                        "toolonce.agent.consumer-group", "app-flyway-" + UUID.randomUUID(),
                        "toolonce.agent.resume-on-start", "false",
                        "toolonce.signing.keyring-file", TestKeys.file().toString())).run()) {
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);

            assertThat(jdbc.queryForList("SELECT script FROM public.flyway_schema_history WHERE success", String.class))
                    .containsExactly("V1__app_orders.sql");
            assertThat(jdbc.queryForList("SELECT script FROM agent.flyway_schema_history WHERE success AND version IS NOT "
                    + "NULL ORDER BY installed_rank", String.class)).containsExactlyElementsOf(AgentMigrationScripts.all());
            assertThat(app.getBean(AgentMigrations.class).applied()).isEqualTo(AgentMigrationScripts.all().size());
            assertThat(jdbc.queryForObject("SELECT count(*) FROM app_orders", Long.class)).isZero();
        }
    }
}
