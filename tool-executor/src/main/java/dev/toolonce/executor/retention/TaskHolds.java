package dev.toolonce.executor.retention;

import dev.toolonce.executor.ledger.TaskHoldStore;
import dev.toolonce.messaging.IsolatingBatchProcessor;
import dev.toolonce.messaging.IsolatingBatchProcessor.Decoded;
import dev.toolonce.messaging.SignedRecords;
import dev.toolonce.schemas.ContractValidator;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.InputBounds;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.schemas.signing.Verdict;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * docs/protocol.md §13: the ledger rows of a task the agent reports open are never purged — a saga may still need
 * to compensate a step committed long ago. The agent publishes its tasks' states on the task topic
 * ({@code toolonce.agent-tasks}, docs/agent-tasks.md); this listener keeps one row per task in {@code task_hold}
 * through {@link TaskHoldStore}, the newest {@code version} winning, so redeliveries and reordering cannot reopen a
 * closed task or close an open one early. {@link RetentionPurger} skips every call of an open task.
 *
 * <p>It is on the consumers' shared error path ({@link IsolatingBatchProcessor}, docs/failure-model.md): a task event
 * that is not JSON, breaks the bounds or the task-event schema (a NUL or an over-long id) is dead-lettered to the
 * task DLQ alone, one that fails to apply is tried {@code poison-attempts} times and dead-lettered, and a database
 * outage redelivers the batch. Before, such a record failed its batch for ever while readiness stayed UP.
 *
 * <p>A task event counts only when signed by a key with the {@code task} power for its tenant (docs/security.md §6b):
 * otherwise anyone who can write the topic could hold a tenant's calls from the purge for ever, or release them early.
 */
public final class TaskHolds {
    /** DLQ code of a task event that is empty or not JSON. */
    public static final String UNREADABLE_TASK_EVENT = "UNREADABLE_TASK_EVENT";

    private final EventCodec codec = new EventCodec();
    private final ContractValidator validator = new ContractValidator();
    private final IsolatingBatchProcessor<Hold> processor;
    private final Keyring keyring;

    /** What a task event says about retention: whether the task is open, at which version. */
    record Hold(String tenantId, String taskId, long version, boolean open) {
    }

    public TaskHolds(TaskHoldStore store, Keyring keyring, IsolatingBatchProcessor.DeadLetterSink deadLetters,
                     TransactionTemplate tx, BooleanSupplier databaseAnswers, int maxAttempts, MeterRegistry meters) {
        this.keyring = keyring;
        this.processor = new IsolatingBatchProcessor<>(
                new IsolatingBatchProcessor.Settings("task-holds", maxAttempts, Duration.ofMillis(200)),
                this::decode,
                holds -> tx.executeWithoutResult(s -> holds.forEach(h ->
                        store.apply(h.tenantId(), h.taskId(), h.version(), h.open()))),
                deadLetters, databaseAnswers, (record, decoded, code, message) -> { }, meters);
    }

    Decoded<Hold> decode(ConsumerRecord<byte[], byte[]> r) {
        if (r.value() == null || r.value().length == 0) {
            return new Decoded.Refused<>(r, UNREADABLE_TASK_EVENT, "record value is empty");
        }
        Verdict verdict = SignedRecords.verify(keyring, r);
        if (verdict instanceof Verdict.Refused refused) {
            return new Decoded.Refused<>(r, refused.code(), refused.message());
        }
        JsonNode n;
        try {
            n = codec.parse(r.value());
        } catch (InputBounds.OutOfBoundsException e) {
            return new Decoded.Refused<>(r, "INPUT_OUT_OF_BOUNDS", e.getMessage());
        } catch (IllegalArgumentException e) {
            return new Decoded.Refused<>(r, UNREADABLE_TASK_EVENT, e.getMessage());
        }
        List<String> violations = validator.validateTaskEvent(n);
        if (!violations.isEmpty()) {
            return new Decoded.Refused<>(r, "SCHEMA_INVALID", "task event violates the schema: "
                    + String.join("; ", violations));
        }
        String tenant = n.get("tenantId").asString();
        Verdict.Refused notAllowed = ((Verdict.Signed) verdict).authorize(Power.TASK, tenant);
        if (notAllowed != null) {
            return new Decoded.Refused<>(r, notAllowed.code(), notAllowed.message());
        }
        return new Decoded.Item<>(r, new Hold(tenant, n.get("taskId").asString(),
                n.get("version").asLong(), n.get("open").asBoolean()));
    }

    @KafkaListener(id = "task-holds", topics = "${toolonce.executor.tasks-topic:toolonce.agent-tasks}",
            groupId = "${toolonce.executor.consumer-group:toolonce-executor}-task-holds", batch = "true")
    public void onBatch(List<ConsumerRecord<byte[], byte[]>> records) {
        processor.process(records);
    }
}
