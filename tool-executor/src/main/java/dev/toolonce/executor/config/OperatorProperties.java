package dev.toolonce.executor.config;

import java.net.URI;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code toolonce.operator.*}: what the operator API v1 and the console reach beyond the ledger (docs/operations.md §4).
 *
 * @param deadLetterTopics the dead-letter topics operators may read
 * @param replayTopics     the topics a dead letter may be replayed to (the topics ToolOnce's consumers read); never a
 *                         dead-letter topic. The executor's Kafka principal needs write access to them.
 * @param tasksUrl         the agent side's task API (an application on the agent starter, or the result consumer):
 *                         the console's task pages go there through this executor, with the operator's own token;
 *                         unset, the console says there is no task API
 */
@ConfigurationProperties("toolonce.operator")
public record OperatorProperties(
        @DefaultValue({"toolonce.tool-intents.dlq", "toolonce.tool-results.dlq", "toolonce.agent-tasks.dlq",
                "toolonce.relay.dlq"}) List<String> deadLetterTopics,
        @DefaultValue({"toolonce.tool-intents", "toolonce.tool-results", "toolonce.agent-tasks"})
        List<String> replayTopics,
        URI tasksUrl) {

    public OperatorProperties {
        deadLetterTopics = List.copyOf(deadLetterTopics);
        replayTopics = List.copyOf(replayTopics);
        if (tasksUrl != null && tasksUrl.toString().isBlank()) {
            tasksUrl = null; // "${TOOLONCE_TASKS_URL:}" with the variable unset
        }
        if (tasksUrl != null && !("http".equals(tasksUrl.getScheme()) || "https".equals(tasksUrl.getScheme()))) {
            throw new IllegalArgumentException("toolonce.operator.tasks-url must be an http(s) URL (was " + tasksUrl + ")");
        }
    }
}
