package dev.toolonce.agent.publish;

import dev.toolonce.agent.results.StepResults;
import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.hash.RequestHasher;
import dev.toolonce.jdbc.MessageIds;
import dev.toolonce.jdbc.OutboxEvent;
import dev.toolonce.jdbc.OutboxStore;
import dev.toolonce.core.shard.TenantShards;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.ContractValidator;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.TraceParent;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Power;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The agent's way to ask for a tool call: writes the step row ({@code agent_step}) and the intent's
 * {@code outbox_event} row in the caller's transaction, so the step exists if and only if the intent will
 * be published (the relay publishes it after commit). Validates the intent first: a bad one throws
 * {@link IllegalArgumentException} naming the field and writes nothing. The row carries the agent's current
 * trace ({@link TraceContext}; by default the logging context's) as {@code traceparent}, and the agent's signature
 * (docs/security.md §6b): an intent is signed with a key of power {@code intent} for its tenant, a compensation
 * request ({@code <op>.compensate}, type {@link Contract#COMPENSATION_TYPE}) with one of power {@code compensate}.
 * Thread-safe.
 */
public final class IntentPublisher {
    private final String schema;
    private final Function<String, String> topicOfTenant;
    private final String source;
    private final EventCodec codec = new EventCodec();
    private final ContractValidator validator = new ContractValidator();
    private final RequestHasher hasher = new RequestHasher();
    private final TraceContext trace;
    private final Keyring keyring;

    /**
     * @param schema  the agent's schema holding {@code agent_step} and {@code outbox_event}
     * @param topic   the intents topic (normally {@link Contract#INTENTS_TOPIC})
     * @param source  {@code ce_source} of the intents, e.g. {@code /agents/checkout}
     * @param keyring holds the agent's key
     */
    public IntentPublisher(String schema, String topic, String source, Keyring keyring) {
        this(schema, topic, source, TraceContext.MDC_ENTRIES, keyring);
    }

    /** @param trace where the current trace comes from ({@link TraceContext#NONE} to carry none) */
    public IntentPublisher(String schema, String topic, String source, TraceContext trace, Keyring keyring) {
        this(schema, tenant -> topic, source, trace, keyring);
    }

    private IntentPublisher(String schema, Function<String, String> topicOfTenant, String source, TraceContext trace,
                            Keyring keyring) {
        this.schema = schema;
        this.topicOfTenant = topicOfTenant;
        this.source = source;
        this.trace = trace;
        this.keyring = keyring;
    }

    /**
     * A publisher for a ledger sharded by tenant (docs/scaling.md §3): each intent goes to the intents topic of the
     * shard that serves its tenant, the map the executors are given too. An intent of a tenant no shard serves is
     * refused ({@link IllegalArgumentException}) and nothing is written.
     *
     * @param topicOfShard each shard's intents topic, by shard name
     * @throws IllegalArgumentException when a shard has no topic
     */
    public static IntentPublisher sharded(String schema, TenantShards shards, Map<String, String> topicOfShard,
                                          String source, TraceContext trace, Keyring keyring) {
        for (TenantShards.Shard s : shards.shards()) {
            String topic = topicOfShard.get(s.name());
            if (topic == null || topic.isBlank()) {
                throw new IllegalArgumentException("shard " + s.name() + " has no intents topic");
            }
        }
        Map<String, String> topics = Map.copyOf(topicOfShard);
        return new IntentPublisher(schema, tenant -> topics.get(shards.shardOf(tenant).orElseThrow(() ->
                new IllegalArgumentException("no shard serves tenant " + tenant + ": name it in a shard's tenants, "
                        + "or give one shard every other tenant (*)"))), source, trace, keyring);
    }

    /**
     * Publishes through a plain JDBC connection; the caller owns the transaction (auto-commit off to make
     * step and intent atomic).
     *
     * @return the intent's message id ({@code ce_id})
     */
    public String publish(Connection connection, ToolIntent intent) {
        return publish(new JdbcTemplate(new SingleConnectionDataSource(connection, true)), intent);
    }

    /**
     * Publishes inside the current Spring transaction on {@code dataSource}.
     *
     * @throws IllegalStateException when no transaction is active (step and intent would not be atomic)
     */
    public String publish(DataSource dataSource, ToolIntent intent) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("IntentPublisher.publish(DataSource, …) needs an active transaction");
        }
        return publish(new JdbcTemplate(dataSource), intent);
    }

    /**
     * Publishes several intents through a plain JDBC connection in the caller's transaction, as {@link
     * #publish(Connection, ToolIntent)} publishes one, with a fixed number of statements whatever their number: their
     * steps in one insert and their outbox rows in one. Every intent is validated and signed before anything is
     * written, so an invalid one throws {@link IllegalArgumentException} naming it and writes nothing.
     *
     * @return the intents' message ids, in order
     */
    public List<String> publishAll(Connection connection, List<ToolIntent> intents) {
        return publishAll(new JdbcTemplate(new SingleConnectionDataSource(connection, true)), intents);
    }

    /**
     * {@link #publishAll(Connection, List)} inside the current Spring transaction on {@code dataSource}.
     *
     * @throws IllegalStateException when no transaction is active (steps and intents would not be atomic)
     */
    public List<String> publishAll(DataSource dataSource, List<ToolIntent> intents) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("IntentPublisher.publishAll(DataSource, …) needs an active transaction");
        }
        return publishAll(new JdbcTemplate(dataSource), intents);
    }

    private String publish(JdbcTemplate jdbc, ToolIntent intent) {
        return publishAll(jdbc, List.of(intent)).get(0);
    }

    private List<String> publishAll(JdbcTemplate jdbc, List<ToolIntent> intents) {
        List<ToolIntent> withIds = new ArrayList<>(intents.size());
        List<String> hashes = new ArrayList<>(intents.size());
        List<OutboxEvent> events = new ArrayList<>(intents.size());
        String traceparent = TraceParent.valid(trace.traceparent());
        for (int i = 0; i < intents.size(); i++) {
            UUID id = MessageIds.next();
            ToolIntent withId = intents.get(i).withMessageId(id.toString());
            String payload = codec.write(withId);
            try {
                hashes.add(validate(withId, payload));
            } catch (IllegalArgumentException e) {
                throw intents.size() == 1 ? e : new IllegalArgumentException("intent " + i + " of "
                        + intents.size() + ": " + e.getMessage(), e);
            }
            RecordKind kind = RecordKind.of(withId.operation());
            String topic;
            try {
                topic = topicOfTenant.apply(withId.tenantId());
            } catch (IllegalArgumentException e) {
                throw intents.size() == 1 ? e : new IllegalArgumentException("intent " + i + " of "
                        + intents.size() + ": " + e.getMessage(), e);
            }
            events.add(new OutboxEvent(id, topic, withId.recordKey(), kind.type, source, withId.recordKey(), payload,
                    traceparent).signedBy(keyring, kind.power, withId.tenantId()));
            withIds.add(withId);
        }
        List<ToolIntent> steps = new ArrayList<>(withIds.size());
        List<String> stepHashes = new ArrayList<>(withIds.size());
        for (int i = 0; i < withIds.size(); i++) {
            if (withIds.get(i).taskId() != null && withIds.get(i).stepId() != null) {
                steps.add(withIds.get(i));
                stepHashes.add(hashes.get(i));
            }
        }
        new StepResults(jdbc, schema).openAll(steps, stepHashes);
        new OutboxStore(jdbc, schema).append(events);
        return withIds.stream().map(ToolIntent::messageId).toList();
    }

    /**
     * Validates an intent as {@link #publish} would, without writing anything — e.g. every step of a task at its
     * submission, so that no later step can fail to be published inside the result consumer's transaction.
     *
     * @throws IllegalArgumentException naming the field when the intent would be refused
     */
    public void check(ToolIntent intent) {
        ToolIntent withId = intent.withMessageId(UUID.randomUUID().toString());
        validate(withId, codec.write(withId));
        Power power = RecordKind.of(withId.operation()).power;
        if (keyring.signer(power, withId.tenantId()).isEmpty()) {
            throw new IllegalArgumentException("no key in " + keyring.path() + " may sign " + power.label()
                    + " records for tenant '" + withId.tenantId() + "'");
        }
    }

    /** @return the intent's request hash ({@code sha256:…}) */
    private String validate(ToolIntent intent, String payload) {
        List<String> violations = validator.validateIntent(codec.parse(payload.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        if (!violations.isEmpty()) {
            throw new IllegalArgumentException("invalid tool intent: " + String.join("; ", violations));
        }
        CallScope scope = new CallScope(intent.tenantId(), intent.tool(), intent.operation(), intent.idempotencyKey());
        return hasher.hash(scope, intent.arguments()).value();
    }
}
