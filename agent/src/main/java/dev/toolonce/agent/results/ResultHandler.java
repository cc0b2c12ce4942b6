package dev.toolonce.agent.results;

import dev.toolonce.schemas.ToolResult;

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
}
