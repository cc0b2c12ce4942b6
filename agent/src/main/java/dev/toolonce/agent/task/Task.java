package dev.toolonce.agent.task;

/**
 * A task as checkpointed in {@code agent_task}.
 *
 * @param version    grows with every change of the task or one of its steps; orders its events
 * @param failedStep the step whose final failure started the compensation, or null
 */
public record Task(String taskId, String tenantId, TaskState state, long version, String failedStep, String note) {
}
