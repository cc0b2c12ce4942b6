package dev.toolonce.boot.agent;

import dev.toolonce.schemas.ToolResult;

/**
 * A Spring application event for every new result message, published synchronously inside the consumer's
 * transaction (so an {@code @EventListener} joins it; a {@code @TransactionalEventListener} runs after its commit).
 * Same delivery rules as {@link dev.toolonce.agent.results.ResultHandler}.
 */
public record ToolResultReceived(ToolResult result) {
}
