package dev.toolonce.schemas;

/** Names fixed by public contract v1: default topics, CloudEvents headers, DLQ headers, event types. */
public final class Contract {
    public static final String INTENTS_TOPIC = "toolonce.tool-intents";
    public static final String RESULTS_TOPIC = "toolonce.tool-results";
    public static final String INTENTS_DLQ_TOPIC = "toolonce.tool-intents.dlq";
    public static final String RESULTS_DLQ_TOPIC = "toolonce.tool-results.dlq";
    /** Task events of agents that run tasks (docs/agent-tasks.md §8); record key {@code tenantId/taskId}. */
    public static final String TASKS_TOPIC = "toolonce.agent-tasks";
    /** The relay's dead-letter topic, for outbox rows Kafka can never accept (docs/contract.md §11). */
    public static final String RELAY_DLQ_TOPIC = "toolonce.relay.dlq";
    /** Task events the executor's task-hold consumer cannot read or store (docs/contract.md §11). */
    public static final String TASKS_DLQ_TOPIC = "toolonce.agent-tasks.dlq";

    public static final String INTENT_TYPE = "dev.toolonce.tool-intent.v1";
    public static final String RESULT_TYPE = "dev.toolonce.tool-result.v1";
    public static final String TASK_TYPE = "dev.toolonce.agent-task.v1";
    /**
     * A compensation request (docs/contract.md §6): the body of an intent for {@code <op>.compensate}, under a type of
     * its own so that only a key with the {@code compensate} power can ask for one.
     */
    public static final String COMPENSATION_TYPE = "dev.toolonce.tool-compensation.v1";

    public static final String CE_SPECVERSION = "ce_specversion";
    public static final String CE_ID = "ce_id";
    public static final String CE_TYPE = "ce_type";
    public static final String CE_SOURCE = "ce_source";
    public static final String CE_TIME = "ce_time";
    public static final String CE_SUBJECT = "ce_subject";
    public static final String CONTENT_TYPE = "content-type";
    public static final String TRACEPARENT = "traceparent";
    /** The source's signature of the record (docs/contract.md §4a): {@code v1:<kid>:<mac>}. */
    public static final String SIGNATURE = "toolonce-signature";

    public static final String DLQ_ERROR_CODE = "toolonce.error.code";
    public static final String DLQ_ERROR_MESSAGE = "toolonce.error.message";
    public static final String DLQ_ORIGINAL_TOPIC = "toolonce.original.topic";
    public static final String DLQ_ORIGINAL_PARTITION = "toolonce.original.partition";
    public static final String DLQ_ORIGINAL_OFFSET = "toolonce.original.offset";
    public static final String DLQ_ORIGINAL_TIMESTAMP = "toolonce.original.timestamp";
    /** Relay DLQ only: the size of the value left out because it was too large for Kafka. */
    public static final String DLQ_ORIGINAL_VALUE_BYTES = "toolonce.original.value-bytes";
    /**
     * On a record an operator replayed from a dead-letter topic back to its own topic (docs/contract.md §11, added
     * within v1): {@code <dlq topic>/<partition>/<offset>} of the dead letter it is a copy of.
     */
    public static final String REPLAYED_FROM = "toolonce.replayed-from";

    private Contract() {
    }
}
