package dev.toolonce.agent.publish;

import dev.toolonce.schemas.TraceParent;
import org.slf4j.MDC;

/**
 * Where an agent's current trace comes from when it publishes an intent (docs/contract.md §14). The intent carries
 * it as {@code traceparent}; the executor sends it on to the tool and back on the result, so the agent's trace
 * spans the whole call. ToolOnce starts no traces of its own.
 */
@FunctionalInterface
public interface TraceContext {

    /** The current W3C {@code traceparent}, or null when there is none. */
    String traceparent();

    /** The logging-context entry holding a W3C {@code traceparent}; written by the result consumer, read here. */
    String MDC_TRACEPARENT = "traceparent";

    /** No trace is carried. */
    TraceContext NONE = () -> null;

    /**
     * The logging context of the current thread, which is where tracing libraries put the current span: a
     * {@code traceparent} entry if there is one, else {@code traceId} + {@code spanId} (the names Micrometer
     * Tracing and Spring Boot use). The default of {@link IntentPublisher} and {@link IntentRecords}; with no
     * tracing library on the classpath it finds nothing and no trace is carried.
     */
    TraceContext MDC_ENTRIES = () -> {
        String explicit = TraceParent.valid(MDC.get(MDC_TRACEPARENT));
        return explicit != null ? explicit : TraceParent.of(MDC.get("traceId"), MDC.get("spanId"), true);
    };

    /**
     * Runs {@code work} with {@code traceparent} (when valid) as the logging context's {@value #MDC_TRACEPARENT}, as the
     * result consumer does for each result: what it logs, and the intents it publishes through the default context,
     * carry the trace the result came with.
     */
    static <T> T within(String traceparent, java.util.function.Supplier<T> work) {
        String valid = TraceParent.valid(traceparent);
        if (valid == null) {
            return work.get();
        }
        MDC.put(MDC_TRACEPARENT, valid);
        try {
            return work.get();
        } finally {
            MDC.remove(MDC_TRACEPARENT);
        }
    }

    /** A fixed trace, e.g. for an agent that keeps the incoming request's {@code traceparent} itself. */
    static TraceContext of(String traceparent) {
        String valid = TraceParent.valid(traceparent);
        return () -> valid;
    }
}
