package dev.toolonce.executor.execution;

import dev.toolonce.core.call.ToolCall;
import dev.toolonce.schemas.TraceParent;
import org.slf4j.MDC;

/**
 * The call a worker thread is running, in the logging context (docs/operations.md): every line logged while the
 * call runs or is recorded names its scope and fence, and its trace when the intent carried one. Plain logs ignore
 * these entries; structured (JSON) logs emit them as fields.
 */
final class CallLogContext {
    static final String SCOPE = "toolonce.scope";
    static final String FENCE = "toolonce.fence";
    static final String CALL_ID = "toolonce.call_id";
    static final String TRACEPARENT = "traceparent";
    static final String TRACE_ID = "traceId";

    private CallLogContext() {
    }

    static void enter(ToolCall call) {
        MDC.put(SCOPE, call.scope().recordKey());
        MDC.put(FENCE, Long.toString(call.fence()));
        MDC.put(CALL_ID, Long.toString(call.id()));
        if (call.traceparent() != null) { // validated at intake, the only place it is stored
            MDC.put(TRACEPARENT, call.traceparent());
            MDC.put(TRACE_ID, TraceParent.traceId(call.traceparent()));
        }
    }

    static void leave() {
        MDC.remove(SCOPE);
        MDC.remove(FENCE);
        MDC.remove(CALL_ID);
        MDC.remove(TRACEPARENT);
        MDC.remove(TRACE_ID);
    }
}
