package dev.toolonce.agent.task;

import dev.toolonce.jdbc.MessageIds;
import dev.toolonce.jdbc.OutboxEvent;
import dev.toolonce.jdbc.OutboxStore;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Power;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Publishes a task's state after every change, through the agent's outbox in the transaction of the change, to the
 * task topic (default {@value #DEFAULT_TOPIC}; record key {@code tenant/taskId}; type {@value #TYPE}; body: the
 * contract's {@code schemas/agent-task.v1.json}, docs/contract.md). Consumers keep the event with the highest
 * {@code version} per task; the executor uses {@code open} to keep the task's ledger rows from being purged
 * (docs/protocol.md §13).
 */
public final class TaskEvents {
    /** The task topic's default name. */
    public static final String DEFAULT_TOPIC = Contract.TASKS_TOPIC;
    /** {@code ce_type} of a task event. */
    public static final String TYPE = Contract.TASK_TYPE;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final OutboxStore outbox;
    private final String topic;
    private final String source;
    private final Keyring keyring;

    /** @param keyring holds the agent's key with the {@code task} power (docs/security.md §6b) */
    public TaskEvents(JdbcTemplate jdbc, String schema, String topic, String source, Keyring keyring) {
        this.outbox = new OutboxStore(jdbc, schema);
        this.topic = topic;
        this.source = source;
        this.keyring = keyring;
    }

    /** Must run in the transaction of the change it reports. */
    public void publish(Task task, List<Step> steps) {
        UUID id = MessageIds.next();
        ObjectNode body = view(task, steps);
        body.put("messageId", id.toString());
        body.put("at", Instant.now().toString());
        String key = task.tenantId() + "/" + task.taskId();
        outbox.append(new OutboxEvent(id, topic, key, TYPE, source, key, body.toString(), null)
                .signedBy(keyring, Power.TASK, task.tenantId()));
    }

    /** The task and its steps as JSON: what the event carries and what the API answers. */
    public static ObjectNode view(Task task, List<Step> steps) {
        ObjectNode t = JSON.createObjectNode();
        t.put("tenantId", task.tenantId());
        t.put("taskId", task.taskId());
        t.put("state", task.state().name());
        t.put("open", !task.state().isFinal());
        t.put("version", task.version());
        t.put("failedStep", task.failedStep());
        ArrayNode list = t.putArray("steps");
        for (Step s : steps) {
            ObjectNode n = list.addObject();
            n.put("stepId", s.stepId());
            n.put("tool", s.tool());
            n.put("operation", s.operation());
            n.put("idempotencyKey", s.key());
            n.put("state", s.state().name());
            n.put("compensable", s.compensable());
            n.put("irreversible", s.irreversible());
            n.put("needsApproval", s.needsApproval());
            n.put("approvedBy", s.approvedBy());
            n.put("dryRun", s.dryRun());
            n.put("dryRunPassed", s.dryRun() && s.dryRunPassed());
            n.put("externalObjectId", s.externalObjectId());
            n.put("compensationExternalId", s.compensationExternalId());
            n.put("errorCode", s.errorCode());
            n.put("publishes", s.publishes());
            n.put("startedAt", s.startedAt() == null ? null : s.startedAt().toString());
            n.put("finishedAt", s.finishedAt() == null ? null : s.finishedAt().toString());
            n.put("compensationStartedAt", s.compensationStartedAt() == null ? null : s.compensationStartedAt().toString());
            n.put("compensatedAt", s.compensatedAt() == null ? null : s.compensatedAt().toString());
        }
        return t;
    }
}
