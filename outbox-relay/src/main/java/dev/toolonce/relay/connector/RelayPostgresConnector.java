package dev.toolonce.relay.connector;

import org.apache.kafka.connect.connector.Task;

import io.debezium.connector.postgresql.PostgresConnector;

/**
 * Debezium's PostgreSQL connector running {@link RelayPostgresTask}; everything else, offsets
 * and their format included, is Debezium's.
 */
public class RelayPostgresConnector extends PostgresConnector {

    @Override
    public Class<? extends Task> taskClass() {
        return RelayPostgresTask.class;
    }
}
