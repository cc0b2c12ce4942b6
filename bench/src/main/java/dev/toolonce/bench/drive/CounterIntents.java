package dev.toolonce.bench.drive;

import dev.toolonce.schemas.ToolIntent;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Intents for the sandbox's {@code counter} tool (no capability, zero latency): what is measured is
 * ToolOnce, not the tool. Keys are unique per run because the tenant is {@code bench-<runId>}, so no run
 * can be answered from an earlier run's ledger.
 */
public final class CounterIntents {
    private final String tenant;

    /** @param tenant the run's tenant, e.g. {@code bench-1a2b3c4d} */
    public CounterIntents(String tenant) {
        this.tenant = tenant;
    }

    public String tenant() {
        return tenant;
    }

    /**
     * @param key  the idempotency key, unique within the run
     * @param task the agent task id, or null for an intent without a step
     */
    public ToolIntent counter(String key, String task) {
        ObjectNode args = JsonNodeFactory.instance.objectNode().put("opId", tenant + ":" + key).put("delta", 1);
        return new ToolIntent(null, tenant, "counter", "apply", key, args, task, task == null ? null : "1", null);
    }
}
