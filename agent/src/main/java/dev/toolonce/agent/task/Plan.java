package dev.toolonce.agent.task;

import dev.toolonce.agent.results.StepPart;
import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.Compensation;
import dev.toolonce.core.call.DryRun;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A task to run: ordered steps, run one after the other (docs/agent-tasks.md). {@link #check(DryRunCatalog)} is what
 * submission refuses: duplicate or reserved step ids, a compensable step of an irreversible operation, a dry run the
 * step's tool does not declare, and an irreversible step before a compensable one (docs/protocol.md §17) — named
 * both.
 *
 * @param tenantId the tenant of every call of the task
 * @param taskId   unique among the agent's tasks; 1–64 characters of {@code [A-Za-z0-9._-]}
 * @param steps    at least one
 */
public record Plan(String tenantId, String taskId, List<StepSpec> steps) {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    public Plan {
        steps = List.copyOf(steps);
    }

    /** A plan of the given steps, in order. */
    public static Plan of(String tenantId, String taskId, StepSpec... steps) {
        return new Plan(tenantId, taskId, List.of(steps));
    }

    /**
     * {@link #check(DryRunCatalog)} where no tool declares a dry run.
     *
     * @throws PlanRefusedException naming the step(s) and the rule, when the plan cannot be run safely
     */
    public void check() {
        check(DryRunCatalog.NONE);
    }

    /**
     * @param dryRuns the tool operations that declare a dry run
     * @throws PlanRefusedException naming the step(s) and the rule, when the plan cannot be run safely
     */
    public void check(DryRunCatalog dryRuns) {
        if (taskId == null || !ID.matcher(taskId).matches()) {
            throw new PlanRefusedException("taskId must be 1-64 characters of [A-Za-z0-9._-], was " + taskId);
        }
        if (steps.isEmpty()) {
            throw new PlanRefusedException("task " + taskId + " has no steps");
        }
        Set<String> seen = new HashSet<>();
        String firstIrreversible = null;
        for (StepSpec s : steps) {
            if (!ID.matcher(s.stepId()).matches() || StepPart.reserved(s.stepId())) {
                throw new PlanRefusedException("step id '" + s.stepId() + "' must be 1-64 characters of [A-Za-z0-9._-]"
                        + " and not end in " + Compensation.SUFFIX + " or " + DryRun.SUFFIX);
            }
            if (!seen.add(s.stepId())) {
                throw new PlanRefusedException("step id '" + s.stepId() + "' appears twice");
            }
            new CallScope(tenantId, s.tool(), s.operation(), StepKeys.key(tenantId, taskId, s.stepId(), 1));
            if (s.dryRun()) {
                checkDryRun(s, dryRuns);
            }
            if (s.compensable() && s.irreversible()) {
                throw new PlanRefusedException("step '" + s.stepId() + "' is both compensable and irreversible");
            }
            if (s.compensable()) {
                Compensation.of(new CallScope(tenantId, s.tool(), s.operation(), "k"));
                if (firstIrreversible != null) {
                    throw new PlanRefusedException("irreversible step '" + firstIrreversible
                            + "' comes before compensable step '" + s.stepId()
                            + "': irreversible steps must come after every compensable step");
                }
            }
            if (s.irreversible() && firstIrreversible == null) {
                firstIrreversible = s.stepId();
            }
        }
    }

    private void checkDryRun(StepSpec s, DryRunCatalog dryRuns) {
        if (!dryRuns.declares(s.tool(), s.operation())) {
            throw new PlanRefusedException("step '" + s.stepId() + "' asks for a dry run, but tool '" + s.tool()
                    + "' declares no dry run of operation '" + s.operation() + "' (toolonce.agent.dry-runs)");
        }
        try {
            new CallScope(tenantId, s.tool(), DryRun.of(s.operation()),
                    StepKeys.dryRunKey(tenantId, taskId, s.stepId(), 1));
        } catch (IllegalArgumentException e) {
            throw new PlanRefusedException("step '" + s.stepId() + "': its dry run cannot be named: " + e.getMessage());
        }
    }
}
