package dev.toolonce.bench.drive;

import dev.toolonce.schemas.ToolIntent;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Intents for the tool under measurement, operation {@code apply}: the sandbox's {@code counter} (no
 * capability, zero latency, but it writes its effect ledger into PostgreSQL) or {@code noop} (answers from
 * memory: what is measured is ToolOnce alone). Keys are unique per run because the tenant is
 * {@code bench-<runId>}, so no run can be answered from an earlier run's ledger.
 */
public final class BenchIntents {
    private final String tenant;
    private final String tool;

    /**
     * @param tenant the run's tenant, e.g. {@code bench-1a2b3c4d}
     * @param tool   the tool called, with an operation {@code apply} taking {@code opId} and {@code delta}
     */
    public BenchIntents(String tenant, String tool) {
        this.tenant = tenant;
        this.tool = tool;
    }

    public String tool() {
        return tool;
    }

    public String tenant() {
        return tenant;
    }

    /**
     * @param key  the idempotency key, unique within the run
     * @param task the agent task id, or null for an intent without a step
     */
    public ToolIntent intent(String key, String task) {
        ObjectNode args = JsonNodeFactory.instance.objectNode().put("opId", tenant + ":" + key).put("delta", 1);
        return new ToolIntent(null, tenant, tool, "apply", key, args, task, task == null ? null : "1", null);
    }
}
