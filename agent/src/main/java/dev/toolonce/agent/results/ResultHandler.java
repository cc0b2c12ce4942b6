package dev.toolonce.agent.results;

import dev.toolonce.agent.publish.TraceContext;
import dev.toolonce.schemas.ToolResult;
import java.util.List;

/**
 * The application's hook for results (docs/agent-tasks.md): called once per new result message, after its inbox row
 * and its step were recorded, in the same transaction — so what the handler writes to the agent's database commits
 * with them or not at all. A message seen before is not handed over again; a result replayed under a new message id
 * is (it is a new message), with {@code replayed: true} and a {@code callVersion} already seen. An exception rolls
 * the batch back: the record is retried and, if it keeps failing on its own, dead-lettered
 * (docs/failure-model.md, "Poison records").
 */
@FunctionalInterface
public interface ResultHandler {
    void onResult(ToolResult result);

    /**
     * The same, told whether {@link StepResults} applied the result to its call's {@code agent_step} row, the one record
     * of a call's outcome (by {@link ResultRule}). The consumer calls this one; by default it calls
     * {@link #onResult(ToolResult)}. The task engine overrides it: it moves a task only on an applied result.
     */
    default void onResult(ToolResult result, boolean applied) {
        onResult(result);
    }

    /** A new result of a poll batch: whether {@link StepResults} applied it, and the trace it came with (nullable). */
    record Received(ToolResult result, boolean applied, String traceparent) {
    }

    /**
     * The new results of a poll batch, in order, in the batch's transaction. The consumer calls this when it applied
     * the batch at once, whose results then belong to distinct steps and distinct tasks; otherwise it calls {@link
     * #onResult(ToolResult, boolean)} per result. By default each result goes to {@link #onResult(ToolResult, boolean)}
     * in turn, with its trace in the logging context ({@link TraceContext#within}).
     */
    default void onResults(List<Received> results) {
        for (Received r : results) {
            TraceContext.within(r.traceparent(), () -> {
                onResult(r.result(), r.applied());
                return null;
            });
        }
    }
}
