package dev.toolonce.agent.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.schemas.ContractValidator;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The task event as {@link TaskEvents} builds it matches the contract's {@code agent-task.v1.json} in every task and
 * step state, so a state added on one side and not the other fails here. What the engine really publishes is checked
 * against the same schema after every test of {@code TaskEngineIT}.
 */
class TaskEventSchemaTest {
    private final ContractValidator validator = new ContractValidator();

    private static Step step(String id, StepState state, boolean dryRun) {
        Instant t = Instant.parse("2026-12-01T10:00:00Z");
        return new Step("acme", "order-7", id, 1, "payments", "charge", "{}", 1, "acme:order-7:" + id + ":1", true, false, true,
                "acme:order-7:" + id + ":1", "alice", state, 3, -1, "ch_1", null, "TOOL_REJECTED", "no", 1, t, t, null,
                null, dryRun, dryRun ? "acme:order-7:" + id + ":1" : null, 1);
    }

    private static ObjectNode event(TaskState state, List<Step> steps) {
        ObjectNode e = TaskEvents.view(new Task("order-7", "acme", state, 4, "charge", null), steps);
        e.put("messageId", "3f1c0000-0000-0000-0000-000000000000");
        e.put("at", "2026-12-01T10:00:01Z");
        return e;
    }

    @Test
    void everyTaskAndStepStateMakesAValidEvent() {
        for (TaskState t : TaskState.values()) {
            for (StepState s : StepState.values()) {
                ObjectNode e = event(t, List.of(step("charge", s, true), step("email", StepState.PENDING, false)));
                assertThat(validator.validateTaskEvent(e)).as(t + "/" + s + ": " + e).isEmpty();
            }
        }
    }

    @Test
    void anEventWhoseOpenFlagContradictsItsStateIsInvalid() {
        ObjectNode e = event(TaskState.SUCCEEDED, List.of(step("charge", StepState.COMMITTED, false)));
        e.put("open", true);
        assertThat(validator.validateTaskEvent(e)).isNotEmpty().anySatisfy(v -> assertThat(v).contains("open"));
    }

    @Test
    void anEventWithoutStepsOrWithAnUnknownStepStateIsInvalid() {
        ObjectNode e = event(TaskState.RUNNING, List.of(step("charge", StepState.RUNNING, false)));
        ((ObjectNode) e.get("steps").get(0)).put("state", "HALF_DONE");
        assertThat(validator.validateTaskEvent(e)).isNotEmpty().anySatisfy(v -> assertThat(v).contains("state"));
        e.putArray("steps");
        assertThat(validator.validateTaskEvent(e)).isNotEmpty().anySatisfy(v -> assertThat(v).contains("steps"));
    }
}
