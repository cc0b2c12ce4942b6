package dev.toolonce.agent.publish;

import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.TraceParent;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.schemas.signing.RecordSignature;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * An intent as a Kafka record of the public contract (docs/contract.md): the scope as key, CloudEvents headers in
 * binary mode, the message id both as {@code ce_id} and in the body. For agents (and tools such as the demo, the
 * bench and the fault experiment) that produce intents straight to the intents topic instead of through the
 * outbox ({@link IntentPublisher}). A {@code traceparent} header carries the current trace ({@link TraceContext}; by
 * default the logging context's) when there is one. Every record is signed with the agent's key
 * (docs/contract.md §4a): an intent with one of power {@code intent} for its tenant, a compensation request
 * ({@code <op>.compensate}, type {@link Contract#COMPENSATION_TYPE}) with one of power {@code compensate}.
 * Thread-safe.
 */
public final class IntentRecords {
    private final EventCodec codec = new EventCodec();
    private final String source;
    private final TraceContext trace;
    private final Keyring keyring;

    /**
     * @param source  {@code ce_source} of the records, e.g. {@code /agents/checkout}
     * @param keyring holds the agent's key
     */
    public IntentRecords(String source, Keyring keyring) {
        this(source, TraceContext.MDC_ENTRIES, keyring);
    }

    /** @param trace where the current trace comes from ({@link TraceContext#NONE} to carry none) */
    public IntentRecords(String source, TraceContext trace, Keyring keyring) {
        this.source = source;
        this.trace = trace;
        this.keyring = keyring;
    }

    /**
     * The intent under {@code messageId}, signed.
     *
     * @throws IllegalStateException when the keyring holds no key that may sign it
     */
    public ProducerRecord<byte[], byte[]> record(ToolIntent intent, String messageId) {
        ToolIntent withId = intent.withMessageId(messageId);
        RecordKind kind = RecordKind.of(withId.operation());
        ProducerRecord<byte[], byte[]> r = unsigned(withId.recordKey(),
                codec.write(withId).getBytes(StandardCharsets.UTF_8), messageId, kind.type);
        header(r, Contract.SIGNATURE, keyring.sign(kind.power, withId.tenantId(), kind.type, messageId, r.value()));
        return r;
    }

    /**
     * Any body under the contract's key and headers, whether or not it is a valid intent: fault experiments use it
     * for records that must be dead-lettered (for what they are, not for want of a signature: the body is signed
     * with the key for the tenant the record key names, when there is one).
     */
    public ProducerRecord<byte[], byte[]> raw(String key, byte[] body, String messageId) {
        ProducerRecord<byte[], byte[]> r = unsigned(key, body, messageId, Contract.INTENT_TYPE);
        String tenant = key.contains("/") ? key.substring(0, key.indexOf('/')) : key;
        keyring.signer(Power.INTENT, tenant).ifPresent(k -> header(r, Contract.SIGNATURE,
                RecordSignature.sign(k, Contract.INTENT_TYPE, messageId, body)));
        return r;
    }

    private ProducerRecord<byte[], byte[]> unsigned(String key, byte[] body, String messageId, String type) {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(Contract.INTENTS_TOPIC,
                key.getBytes(StandardCharsets.UTF_8), body);
        header(r, Contract.CE_SPECVERSION, "1.0");
        header(r, Contract.CE_ID, messageId);
        header(r, Contract.CE_TYPE, type);
        header(r, Contract.CE_SOURCE, source);
        header(r, Contract.CE_TIME, Instant.now().toString());
        header(r, Contract.CE_SUBJECT, key);
        header(r, Contract.CONTENT_TYPE, "application/json");
        String traceparent = TraceParent.valid(trace.traceparent());
        if (traceparent != null) {
            header(r, Contract.TRACEPARENT, traceparent);
        }
        return r;
    }

    private static void header(ProducerRecord<byte[], byte[]> r, String name, String value) {
        r.headers().add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
