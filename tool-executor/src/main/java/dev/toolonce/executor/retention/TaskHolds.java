package dev.toolonce.executor.retention;

import dev.toolonce.executor.ledger.TaskHoldStore;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * docs/protocol.md §13: the ledger rows of a task the agent reports open are never purged — a saga may still need
 * to compensate a step committed long ago. The agent publishes its tasks' states on the task topic
 * ({@code toolonce.agent-tasks}, docs/agent-tasks.md); this listener keeps one row per task in {@code task_hold}
 * through {@link TaskHoldStore}, the newest {@code version} winning, so redeliveries and reordering cannot reopen a
 * closed task or close an open one early. {@link RetentionPurger} skips every call of an open task. A record that
 * cannot be read is logged and skipped: it holds nothing, and blocking the partition would hold every task behind it.
 */
public final class TaskHolds {
    private static final Logger log = LoggerFactory.getLogger(TaskHolds.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final TaskHoldStore store;

    public TaskHolds(TaskHoldStore store) {
        this.store = store;
    }

    @KafkaListener(id = "task-holds", topics = "${toolonce.executor.tasks-topic:toolonce.agent-tasks}",
            groupId = "${toolonce.executor.consumer-group:toolonce-executor}-task-holds", batch = "true")
    public void onBatch(List<ConsumerRecord<byte[], byte[]>> records) {
        for (ConsumerRecord<byte[], byte[]> r : records) {
            JsonNode n;
            try {
                n = r.value() == null ? null : JSON.readTree(new String(r.value(), StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                n = null;
            }
            if (n == null || !n.path("tenantId").isString() || !n.path("taskId").isString()
                    || !n.path("version").canConvertToLong() || !n.path("open").isBoolean()) {
                log.warn("task event at {}-{}@{} is not readable; skipped", r.topic(), r.partition(), r.offset());
                continue;
            }
            store.apply(n.get("tenantId").asString(), n.get("taskId").asString(), n.get("version").asLong(),
                    n.get("open").asBoolean());
        }
    }
}
