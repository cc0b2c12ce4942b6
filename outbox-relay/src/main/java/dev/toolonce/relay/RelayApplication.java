package dev.toolonce.relay;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The outbox relay: one Debezium embedded engine per source database streams the inserts of
 * that database's {@code outbox_event} table (logical replication, {@code pgoutput}) to Kafka,
 * and confirms a position to PostgreSQL only after Kafka acknowledged every record before it.
 *
 * <p>Each source has its own JDBC URL, so there is no application-wide {@code DataSource}:
 * Boot's DataSource and Kafka auto-configurations are switched off and the relay builds its
 * own connections and producer from {@code toolonce.relay.*}.
 */
@SpringBootApplication(excludeName = {
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration"})
@ConfigurationPropertiesScan
public class RelayApplication {

    /** Name of the configuration file ({@code toolonce-relay.yml}). */
    public static final String CONFIG_NAME = "toolonce-relay";

    /**
     * A builder preconfigured for the relay. The config name is set here rather than left at
     * {@code application}, because several ToolOnce apps may share one classpath in tests.
     * Overrides belong on the command line ({@code --toolonce.relay.sources[0].name=...}).
     *
     * @return a new builder; never null
     */
    public static SpringApplicationBuilder builder() {
        return new SpringApplicationBuilder(RelayApplication.class)
                .properties("spring.config.name=" + CONFIG_NAME);
    }

    public static void main(String[] args) {
        builder().run(args);
    }
}
