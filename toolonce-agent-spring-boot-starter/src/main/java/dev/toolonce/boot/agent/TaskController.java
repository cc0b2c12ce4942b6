package dev.toolonce.boot.agent;

import dev.toolonce.agent.task.Task;
import dev.toolonce.agent.task.TaskEngine;
import dev.toolonce.agent.task.TaskEvents;
import dev.toolonce.security.TenantScope;
import dev.toolonce.security.web.Limits;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * The task API behind {@code ./toolonce tasks …} (docs/agent-tasks.md, docs/security.md): tasks with their steps,
 * states, keys, external ids, compensations and timings for viewers; approvals, argument changes and resumes for
 * operators. Every request is scoped to the principal's tenants ({@link TenantScope}): another tenant's task is 404,
 * never listed. An approval names the step key the operator was shown and
 * records the authenticated principal. Refusals are problem+json ({@code ProblemAdvice}): 400 bad request, 404
 * unknown, 409 refused.
 */
@RestController
public class TaskController {
    private final TaskEngine tasks;

    public TaskController(TaskEngine tasks) {
        this.tasks = tasks;
    }

    /**
     * An operator's approval: the step's {@code idempotencyKey} as shown (it names the exact arguments; after an
     * argument change the key is new and this approval is refused as stale, 409).
     */
    public record Approval(String idempotencyKey) {
    }

    @GetMapping("/tasks")
    @PreAuthorize("hasRole('VIEWER')")
    public List<JsonNode> list(@RequestParam(defaultValue = "50") int limit, Authentication who) {
        return tasks.list(TenantScope.of(who).sqlFilter(), Limits.page(limit)).stream()
                .map(t -> (JsonNode) TaskEvents.view(t, tasks.steps(t.taskId()))).toList();
    }

    @GetMapping("/tasks/{taskId}")
    @PreAuthorize("hasRole('VIEWER')")
    public JsonNode show(@PathVariable String taskId, Authentication who) {
        return view(visible(taskId, who));
    }

    @PostMapping("/tasks/{taskId}/steps/{stepId}/approve")
    @PreAuthorize("hasRole('OPERATOR')")
    public JsonNode approve(@PathVariable String taskId, @PathVariable String stepId, @RequestBody Approval a,
                            Authentication who) {
        visible(taskId, who);
        if (a == null || a.idempotencyKey() == null || a.idempotencyKey().isBlank()) {
            throw new IllegalArgumentException("an approval names what it approves: {\"idempotencyKey\": the step's key "
                    + "as shown by GET /tasks/" + taskId + "}");
        }
        return view(tasks.approve(taskId, stepId, who.getName(), a.idempotencyKey()));
    }

    @PostMapping("/tasks/{taskId}/steps/{stepId}/arguments")
    @PreAuthorize("hasRole('OPERATOR')")
    public JsonNode changeArguments(@PathVariable String taskId, @PathVariable String stepId, @RequestBody JsonNode args,
                                    Authentication who) {
        visible(taskId, who);
        return view(tasks.changeArguments(taskId, stepId, args));
    }

    @PostMapping("/tasks/{taskId}/resume")
    @PreAuthorize("hasRole('OPERATOR')")
    public Map<String, Object> resume(@PathVariable String taskId, Authentication who) {
        visible(taskId, who);
        return Map.of("taskId", taskId, "republished", tasks.resume(taskId));
    }

    /** The task if it exists and belongs to one of the principal's tenants; otherwise, alike, 404. */
    private Task visible(String taskId, Authentication who) {
        return tasks.find(taskId).filter(t -> TenantScope.of(who).includes(t.tenantId()))
                .orElseThrow(() -> new NoSuchElementException("no task " + taskId));
    }

    private JsonNode view(Task t) {
        return TaskEvents.view(t, tasks.steps(t.taskId()));
    }
}
