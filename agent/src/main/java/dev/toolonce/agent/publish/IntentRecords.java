package dev.toolonce.agent.publish;

import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.TraceParent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * An intent as a Kafka record of the public contract (docs/contract.md): the scope as key, CloudEvents headers in
 * binary mode, the message id both as {@code ce_id} and in the body. For agents (and tools such as the demo, the
 * bench and the fault experiment) that produce intents straight to the intents topic instead of through the
 * outbox ({@link IntentPublisher}). A {@code traceparent} header carries the current trace ({@link TraceContext}; by
 * default the logging context's) when there is one. Thread-safe.
 */
public final class IntentRecords {
    private final EventCodec codec = new EventCodec();
    private final String source;
    private final TraceContext trace;

    /** @param source {@code ce_source} of the records, e.g. {@code /agents/checkout} */
    public IntentRecords(String source) {
        this(source, TraceContext.MDC_ENTRIES);
    }

    /** @param trace where the current trace comes from ({@link TraceContext#NONE} to carry none) */
    public IntentRecords(String source, TraceContext trace) {
        this.source = source;
        this.trace = trace;
    }

    /** The intent under {@code messageId}. */
    public ProducerRecord<byte[], byte[]> record(ToolIntent intent, String messageId) {
        ToolIntent withId = intent.withMessageId(messageId);
        return raw(withId.recordKey(), codec.write(withId).getBytes(StandardCharsets.UTF_8), messageId);
    }

    /**
     * Any body under the contract's key and headers, whether or not it is a valid intent: fault experiments use it
     * for records that must be dead-lettered.
     */
    public ProducerRecord<byte[], byte[]> raw(String key, byte[] body, String messageId) {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(Contract.INTENTS_TOPIC,
                key.getBytes(StandardCharsets.UTF_8), body);
        header(r, Contract.CE_SPECVERSION, "1.0");
        header(r, Contract.CE_ID, messageId);
        header(r, Contract.CE_TYPE, Contract.INTENT_TYPE);
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
