package dev.toolonce.boot.agent;

import dev.toolonce.agent.task.Step;
import dev.toolonce.agent.task.Task;
import dev.toolonce.agent.task.TaskEngine;
import dev.toolonce.agent.task.TaskEvents;
import dev.toolonce.security.TenantScope;
import dev.toolonce.security.web.Limits;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The task API behind {@code ./toolonce tasks …} and the console's task pages, at {@code /api/v1/tasks…} (operator
 * API v1; the unversioned {@code /tasks…} paths answer the same) (docs/agent-tasks.md, docs/security.md): tasks with their steps,
 * states, keys, external ids, compensations and timings for viewers; approvals, argument changes and resumes for
 * operators. Every request is scoped to the principal's tenants ({@link TenantScope}): another tenant's task is 404,
 * never listed. A task is known by tenant and id: {@code ?tenant=T} names the tenant; without it, the one task of that
 * id among the principal's tenants is meant, and an id two of them use is refused (409) naming the parameter. An approval names the step key the operator was shown and
 * records the authenticated principal. Refusals are problem+json ({@code ProblemAdvice}): 400 bad request, 404
 * unknown, 409 refused.
 */
@RestController
public class TaskController {
    private static final JsonMapper JSON = JsonMapper.builder().build();
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

    @GetMapping({"/tasks", "/api/v1/tasks"})
    @PreAuthorize("hasRole('VIEWER')")
    public List<JsonNode> list(@RequestParam(defaultValue = "50") int limit, Authentication who) {
        return tasks.list(TenantScope.of(who).sqlFilter(), Limits.page(limit)).stream().map(this::view).toList();
    }

    @GetMapping({"/tasks/{taskId}", "/api/v1/tasks/{taskId}"})
    @PreAuthorize("hasRole('VIEWER')")
    public JsonNode show(@PathVariable String taskId, @RequestParam(required = false) String tenant,
                         Authentication who) {
        return view(visible(taskId, tenant, who));
    }

    @PostMapping({"/tasks/{taskId}/steps/{stepId}/approve", "/api/v1/tasks/{taskId}/steps/{stepId}/approve"})
    @PreAuthorize("hasRole('OPERATOR')")
    public JsonNode approve(@PathVariable String taskId, @PathVariable String stepId,
                            @RequestParam(required = false) String tenant, @RequestBody Approval a, Authentication who) {
        Task t = visible(taskId, tenant, who);
        if (a == null || a.idempotencyKey() == null || a.idempotencyKey().isBlank()) {
            throw new IllegalArgumentException("an approval names what it approves: {\"idempotencyKey\": the step's key "
                    + "as shown by GET /tasks/" + taskId + "}");
        }
        return view(tasks.approve(t.tenantId(), taskId, stepId, who.getName(), a.idempotencyKey()));
    }

    @PostMapping({"/tasks/{taskId}/steps/{stepId}/arguments",
            "/api/v1/tasks/{taskId}/steps/{stepId}/arguments"})
    @PreAuthorize("hasRole('OPERATOR')")
    public JsonNode changeArguments(@PathVariable String taskId, @PathVariable String stepId,
                                    @RequestParam(required = false) String tenant, @RequestBody JsonNode args,
                                    Authentication who) {
        Task t = visible(taskId, tenant, who);
        return view(tasks.changeArguments(t.tenantId(), taskId, stepId, args));
    }

    @PostMapping({"/tasks/{taskId}/resume", "/api/v1/tasks/{taskId}/resume"})
    @PreAuthorize("hasRole('OPERATOR')")
    public Map<String, Object> resume(@PathVariable String taskId, @RequestParam(required = false) String tenant,
                                      Authentication who) {
        Task t = visible(taskId, tenant, who);
        return Map.of("tenantId", t.tenantId(), "taskId", taskId, "republished", tasks.resume(t.tenantId(), taskId));
    }

    /**
     * The task if it exists and belongs to one of the principal's tenants; otherwise, alike, 404.
     *
     * @param tenant the tenant named by the request, or null for the one task of this id among the principal's tenants
     * @throws IllegalStateException (409) when no tenant is named and several of the principal's tenants have the id
     */
    private Task visible(String taskId, String tenant, Authentication who) {
        TenantScope scope = TenantScope.of(who);
        if (tenant != null) {
            return (scope.includes(tenant) ? tasks.find(tenant, taskId) : Optional.<Task>empty())
                    .orElseThrow(() -> new NoSuchElementException("no task " + taskId));
        }
        List<Task> found = tasks.withId(taskId, scope.sqlFilter());
        if (found.isEmpty()) {
            throw new NoSuchElementException("no task " + taskId);
        }
        if (found.size() > 1) {
            throw new IllegalStateException("task id " + taskId + " names tasks of " + found.size()
                    + " of your tenants: name one with ?tenant=");
        }
        return found.get(0);
    }

    /** The task as its events show it, and each step's arguments, which the events do not carry. */
    private JsonNode view(Task t) {
        List<Step> steps = tasks.steps(t.tenantId(), t.taskId());
        ObjectNode v = TaskEvents.view(t, steps);
        for (int i = 0; i < steps.size(); i++) {
            ((ObjectNode) v.get("steps").get(i)).set("arguments", JSON.readTree(steps.get(i).argumentsJson()));
        }
        return v;
    }
}
