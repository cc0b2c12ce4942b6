package dev.toolonce.boot.agent;

import dev.toolonce.agent.task.Task;
import dev.toolonce.agent.task.TaskEngine;
import dev.toolonce.agent.task.TaskEvents;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * The task API behind {@code ./toolonce tasks …}: tasks with their steps, states, keys, external ids, compensations
 * and timings; approvals; argument changes; resume. 400 for a bad request, 409 when refused (a step already sent).
 */
@RestController
public class TaskController {
    private final TaskEngine tasks;

    public TaskController(TaskEngine tasks) {
        this.tasks = tasks;
    }

    /** An operator's approval or argument change. */
    public record Approval(String operator) {
    }

    @GetMapping("/tasks")
    public List<JsonNode> list(@RequestParam(defaultValue = "50") int limit) {
        return tasks.list(limit).stream().map(t -> (JsonNode) TaskEvents.view(t, tasks.steps(t.taskId()))).toList();
    }

    @GetMapping("/tasks/{taskId}")
    public ResponseEntity<JsonNode> show(@PathVariable String taskId) {
        return tasks.find(taskId).map(t -> ResponseEntity.ok((JsonNode) TaskEvents.view(t, tasks.steps(taskId))))
                .orElse(ResponseEntity.notFound().build());
    }

    @PostMapping("/tasks/{taskId}/steps/{stepId}/approve")
    public JsonNode approve(@PathVariable String taskId, @PathVariable String stepId, @RequestBody(required = false) Approval a) {
        String operator = a == null || a.operator() == null || a.operator().isBlank() ? "operator" : a.operator();
        return view(tasks.approve(taskId, stepId, operator));
    }

    @PostMapping("/tasks/{taskId}/steps/{stepId}/arguments")
    public JsonNode changeArguments(@PathVariable String taskId, @PathVariable String stepId, @RequestBody JsonNode args) {
        return view(tasks.changeArguments(taskId, stepId, args));
    }

    @PostMapping("/tasks/{taskId}/resume")
    public Map<String, Object> resume(@PathVariable String taskId) {
        return Map.of("taskId", taskId, "republished", tasks.resume(taskId));
    }

    private JsonNode view(Task t) {
        return TaskEvents.view(t, tasks.steps(t.taskId()));
    }

    @ExceptionHandler(IllegalArgumentException.class)
    public ResponseEntity<Map<String, String>> badRequest(IllegalArgumentException e) {
        return ResponseEntity.badRequest().body(Map.of("error", String.valueOf(e.getMessage())));
    }

    @ExceptionHandler(IllegalStateException.class)
    public ResponseEntity<Map<String, String>> conflict(IllegalStateException e) {
        return ResponseEntity.status(409).body(Map.of("error", String.valueOf(e.getMessage())));
    }
}
