package dev.toolonce.bench.relay;

import dev.toolonce.jdbc.OutboxEvent;
import dev.toolonce.jdbc.OutboxStore;
import java.sql.Connection;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Writes bench rows into the agent's real outbox ({@code agent.outbox_event}, through {@link OutboxStore},
 * the table's one writer) naming the bench topic, so the relay carries them exactly as it carries intents
 * but no service consumes them. Thread-safe; the caller commits.
 */
final class BenchOutbox {
    static final String TYPE = "dev.toolonce.bench.v1";
    private final String topic;
    private final String runId;

    BenchOutbox(String topic, String runId) {
        this.topic = topic;
        this.runId = runId;
    }

    /** Appends {@code count} rows in the connection's transaction. @return their ids, which the relay sends as {@code ce_id} */
    List<String> append(Connection connection, int count, long firstSeq) {
        OutboxStore store = new OutboxStore(new JdbcTemplate(new SingleConnectionDataSource(connection, true)), "agent");
        List<OutboxEvent> events = new java.util.ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            UUID id = UUID.randomUUID();
            String key = "bench-" + runId + "/" + (firstSeq + i);
            events.add(new OutboxEvent(id, topic, key, TYPE, "/toolonce/bench", key,
                    "{\"run\":\"" + runId + "\",\"seq\":" + (firstSeq + i) + "}", null));
        }
        store.append(events);
        return events.stream().map(e -> e.id().toString()).toList();
    }
}
