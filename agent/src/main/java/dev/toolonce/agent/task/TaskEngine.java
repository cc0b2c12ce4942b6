package dev.toolonce.agent.task;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.agent.publish.TraceContext;
import dev.toolonce.agent.results.ResultHandler;
import dev.toolonce.agent.results.ResultRule;
import dev.toolonce.agent.results.StepPart;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The task API and the saga's engine (docs/agent-tasks.md). Every operation takes the task row's lock, changes the
 * checkpoint, writes the intents it decides to send into the agent outbox ({@link IntentPublisher}) and the task's
 * event ({@link TaskEvents}) — all in one transaction, which joins the caller's when there is one. Thread-safe.
 *
 * <p>{@link #onResult} is called by the result consumer in the transaction that records the result's inbox row, after
 * {@code StepResults} applied it to the call's {@code agent_step} row (or refused it, by {@link ResultRule}): that row
 * is the one record of a call's outcome, and the engine acts only on a result it applied — it does not judge the result
 * a second time. A result delivered twice is skipped by the inbox, and one replayed under a new message id carries a
 * {@code callVersion} the call has already applied, so either advances the task once.
 *
 * <p>A step's calls are its {@link StepPart}s: its own, its dry run and its compensation, each a call of its own at the
 * executor. A step that asks for a dry run gets it first — key {@link StepKeys#dryRunKey} — and is sent only once the
 * dry run of its current arguments committed; a dry run that fails or is refused fails the step before anything of it
 * was sent.
 */
public final class TaskEngine {
    private static final Logger log = LoggerFactory.getLogger(TaskEngine.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final java.util.regex.Pattern OPERATOR = java.util.regex.Pattern.compile("[^\\p{Cntrl}]{1,255}");

    private final TaskStore store;
    private final IntentPublisher publisher;
    private final TaskEvents events;
    private final DataSource dataSource;
    private final TransactionTemplate tx;
    private final DryRunCatalog dryRuns;

    /** An engine whose plans may not ask for dry runs ({@link DryRunCatalog#NONE}). */
    public TaskEngine(TaskStore store, IntentPublisher publisher, TaskEvents events, DataSource dataSource,
                      TransactionTemplate tx) {
        this(store, publisher, events, dataSource, tx, DryRunCatalog.NONE);
    }

    /** @param dryRuns the tool operations that declare a dry run; a plan asking for another is refused */
    public TaskEngine(TaskStore store, IntentPublisher publisher, TaskEvents events, DataSource dataSource,
                      TransactionTemplate tx, DryRunCatalog dryRuns) {
        this.dryRuns = dryRuns;
        this.store = store;
        this.publisher = publisher;
        this.events = events;
        this.dataSource = dataSource;
        this.tx = tx;
    }

    /**
     * Checks and checkpoints a plan, then sends its first step (or waits for its approval). Submitting the same task
     * id again for the same tenant changes nothing and returns the stored task. Task ids are the tenant's own: another
     * tenant may use the same id for a task of its own.
     *
     * @throws PlanRefusedException naming the step(s), when the plan is unsafe or malformed; nothing is written
     */
    public Task submit(Plan plan) {
        plan.check(dryRuns);
        for (StepSpec step : plan.steps()) {
            checkIntent(plan.tenantId(), plan.taskId(), step, StepPart.ACTION, step.arguments());
            if (step.dryRun()) {
                checkIntent(plan.tenantId(), plan.taskId(), step, StepPart.DRY_RUN, step.arguments());
            }
            if (step.compensable()) {
                checkIntent(plan.tenantId(), plan.taskId(), step, StepPart.COMPENSATION, null);
            }
        }
        return tx.execute(s -> {
            if (store.insert(plan)) {
                Task task = store.lock(plan.tenantId(), plan.taskId()).orElseThrow();
                advance(task, true);
            }
            return store.find(plan.tenantId(), plan.taskId()).orElseThrow();
        });
    }

    /**
     * After a crash: steps already committed are never touched; a step that was sent and has no final answer is
     * published again with its ORIGINAL key and arguments (the executor replays the stored outcome, answers when
     * the running call completes, or reconciles); the same for a dry run or a compensation under way; then pending
     * steps run.
     *
     * @return the ids of the steps re-published (a compensation's as {@code <step>.compensate}, a dry run's as
     *         {@code <step>.dry-run})
     * @throws IllegalArgumentException when there is no such task
     */
    public List<String> resume(String tenantId, String taskId) {
        return tx.execute(s -> {
            Task task = locked(tenantId, taskId);
            List<String> again = new ArrayList<>();
            if (task.state().isFinal()) {
                return again;
            }
            for (Step step : store.steps(tenantId, taskId)) {
                StepPart out = outstanding(step.state());
                if (out != null) {
                    send(task, step, out);
                    again.add(out.stepId(step.stepId()));
                }
            }
            advance(task, !again.isEmpty());
            log.info("task {}/{} resumed: re-published {}", tenantId, taskId, again);
            return again;
        });
    }

    /** Resumes every task that is not final (at start-up). @return how many */
    public int resumeAll() {
        List<Task> open = store.open(10_000);
        open.forEach(t -> resume(t.tenantId(), t.taskId()));
        return open.size();
    }

    /**
     * Approves the step's current arguments (its current key). The task goes on if it was waiting for this step.
     *
     * @param operator who approves: 1-255 characters, no control characters (it appears in the task's events)
     * @throws IllegalArgumentException for an unknown task or step, a step that needs no approval, or a bad operator
     * @throws IllegalStateException    when the step was already sent
     */
    public Task approve(String tenantId, String taskId, String stepId, String operator) {
        return approve(tenantId, taskId, stepId, operator, null);
    }

    /**
     * Approves the step only if its current key is {@code shownKey}: the key an operator was shown names the exact
     * arguments (a change of arguments gives the step a new key), so an approval of what is no longer there is refused.
     *
     * @param shownKey the step's idempotency key as the operator saw it; null approves whatever is current
     * @throws IllegalStateException also when {@code shownKey} is not the step's current key (a stale approval)
     */
    public Task approve(String tenantId, String taskId, String stepId, String operator, String shownKey) {
        if (operator == null || !OPERATOR.matcher(operator).matches()) {
            throw new IllegalArgumentException("operator must be 1-255 characters without control characters");
        }
        return tx.execute(s -> {
            Task task = locked(tenantId, taskId);
            Step step = step(tenantId, taskId, stepId);
            if (!step.needsApproval()) {
                throw new IllegalArgumentException("step " + stepId + " of task " + taskId + " needs no approval");
            }
            if (shownKey != null && !shownKey.equals(step.key())) {
                throw new IllegalStateException("stale approval of step " + stepId + " of task " + taskId + ": it names "
                        + shownKey + ", but the step's arguments changed and its key is now " + step.key());
            }
            if (!store.approve(step, operator)) {
                throw new IllegalStateException("step " + stepId + " of task " + taskId + " is " + step.state()
                        + ": only a step not yet sent can be approved");
            }
            advance(task, true);
            return store.find(tenantId, taskId).orElseThrow();
        });
    }

    /**
     * Changes the arguments of a step that was not sent yet. The step gets a new argument version and so a NEW key
     * (the old key stays bound to the old arguments), and any approval is void: a step that needs approval waits
     * for a new one, and a step that asks for a dry run gets a new dry run of the new arguments first.
     *
     * @throws IllegalStateException when the step was already sent (its key is bound to the arguments it was sent
     *         with), or while its dry run is out (wait for its answer)
     */
    public Task changeArguments(String tenantId, String taskId, String stepId, JsonNode arguments) {
        if (arguments == null || !arguments.isObject()) {
            throw new IllegalArgumentException("arguments must be a JSON object");
        }
        return tx.execute(s -> {
            Task task = locked(tenantId, taskId);
            Step step = step(tenantId, taskId, stepId);
            checkIntent(task.tenantId(), taskId, step.stepId(), step.tool(), step.operation(), StepPart.ACTION, arguments);
            if (step.dryRun()) {
                checkIntent(task.tenantId(), taskId, step.stepId(), step.tool(), step.operation(), StepPart.DRY_RUN,
                        arguments);
            }
            String key = StepKeys.key(task.tenantId(), taskId, stepId, step.argVersion() + 1);
            String dryRunKey = StepKeys.dryRunKey(task.tenantId(), taskId, stepId, step.argVersion() + 1);
            if (!store.newArguments(step, arguments.toString(), key, dryRunKey)) {
                throw new IllegalStateException("step " + stepId + " of task " + taskId + " is " + step.state()
                        + " with key " + step.key() + ": the arguments of a step already sent, or whose dry run is "
                        + "out, cannot change");
            }
            advance(task, true);
            return store.find(tenantId, taskId).orElseThrow();
        });
    }

    /** The tenant's task, if it exists. */
    public Optional<Task> find(String tenantId, String taskId) {
        return store.find(tenantId, taskId);
    }

    /** The tasks with this id of these tenants ({@code null}: of every tenant), by tenant. */
    public List<Task> withId(String taskId, String[] tenants) {
        return store.withId(taskId, tenants);
    }

    /** The task's steps in plan order. */
    public List<Step> steps(String tenantId, String taskId) {
        return store.steps(tenantId, taskId);
    }

    /** The newest tasks. */
    public List<Task> list(int limit) {
        return store.list(null, limit);
    }

    /** The newest tasks of these tenants ({@code null}: of every tenant). */
    public List<Task> list(String[] tenants, int limit) {
        return store.list(tenants, limit);
    }

    /**
     * This engine as the result consumer's first handler: it is told whether {@code StepResults} applied each result.
     */
    public ResultHandler resultHandler() {
        return new ResultHandler() {
            @Override
            public void onResult(ToolResult result) {
                throw new IllegalStateException("the task engine acts on results StepResults applied: "
                        + "call onResult(result, applied)");
            }

            @Override
            public void onResult(ToolResult result, boolean applied) {
                TaskEngine.this.onResult(result, applied);
            }

            /**
             * One look-up for the whole batch of which results belong to a task: most results of an agent that calls
             * tools outside any task name a task id that is the application's, not the engine's, and need no lock.
             * A task is created with the intents of its first steps, so a result of a task step finds its task.
             */
            @Override
            public void onResults(List<Received> results) {
                Set<List<String>> tasks = store.existing(results.stream().filter(r -> r.applied()
                        && r.result().taskId() != null && r.result().stepId() != null)
                        .map(r -> List.of(r.result().tenantId(), r.result().taskId())).distinct().toList());
                for (Received r : results) {
                    if (r.applied() && tasks.contains(Arrays.asList(r.result().tenantId(), r.result().taskId()))) {
                        TraceContext.within(r.traceparent(), () -> TaskEngine.this.onResult(r.result(), true));
                    }
                }
            }
        };
    }

    /**
     * Moves the task of a result that {@code StepResults} applied to one of its step's calls — the step's own, its dry
     * run or its compensation; must run in the consumer's transaction with the result's inbox row, after it.
     *
     * @param applied whether {@code StepResults} applied the result to its {@code agent_step} row ({@link ResultRule}
     *                decided there: a newer version, and a rejection only of one of the call's own messages)
     * @return whether the task changed
     */
    public boolean onResult(ToolResult r, boolean applied) {
        if (!applied || r.taskId() == null || r.stepId() == null) {
            return false;
        }
        Optional<Task> locked = store.lock(r.tenantId(), r.taskId());
        if (locked.isEmpty() || locked.get().state().isFinal()) {
            return false;
        }
        Task task = locked.get();
        StepPart part = StepPart.of(r.operation());
        String stepId = part.taskStepId(r.stepId());
        Step step = store.steps(task.tenantId(), task.taskId()).stream().filter(s -> s.stepId().equals(stepId))
                .findFirst().orElse(null);
        if (step == null || !answers(task, step, part, r)) {
            return false;
        }
        boolean moved = switch (part) {
            case ACTION -> applyOriginal(step, r);
            case DRY_RUN -> applyDryRun(step, r);
            case COMPENSATION -> applyCompensation(step, r);
        };
        if (moved) {
            advance(task, true);
        }
        return moved;
    }

    /** The result is for this part of the step's current call, not for an older key of it. */
    private static boolean answers(Task task, Step step, StepPart part, ToolResult r) {
        return task.tenantId().equals(r.tenantId()) && step.tool().equals(r.tool())
                && part.operation(step.operation()).equals(r.operation())
                && key(task.tenantId(), task.taskId(), step.stepId(), step.argVersion(), step.key(), part)
                .equals(r.idempotencyKey());
    }

    /** The part of a step whose call is out in this state, waiting for its answer; null when none is. */
    private static StepPart outstanding(StepState state) {
        return switch (state) {
            case RUNNING -> StepPart.ACTION;
            case DRY_RUN -> StepPart.DRY_RUN;
            case COMPENSATING -> StepPart.COMPENSATION;
            default -> null;
        };
    }

    /**
     * The answer to the step's own call, which {@code agent_step} recorded. A rejection (of the call's own intent,
     * {@code agent_step} checked) moves the step only while that call is out ({@code RUNNING}).
     */
    private boolean applyOriginal(Step step, ToolResult r) {
        return switch (r.status()) {
            case REJECTED -> outstanding(step.state()) == StepPart.ACTION
                    && store.move(step, StepState.FAILED, code(r), message(r));
            case COMMITTED -> from(step, StepState.RUNNING, StepState.NEEDS_REVIEW)
                    && store.move(step, StepState.COMMITTED, null, null);
            case FAILED_FINAL -> from(step, StepState.RUNNING, StepState.NEEDS_REVIEW)
                    && store.move(step, StepState.FAILED, code(r), message(r));
            case NEEDS_REVIEW -> step.state() == StepState.RUNNING
                    ? store.move(step, StepState.NEEDS_REVIEW, code(r), message(r))
                    : step.state() == StepState.COMPENSATING
                    && store.move(step, StepState.COMPENSATION_REVIEW, code(r), message(r));
            case COMPENSATED -> from(step, StepState.COMPENSATING, StepState.COMPENSATION_REVIEW)
                    && store.move(step, StepState.COMPENSATED, null, null);
        };
    }

    /**
     * The dry run's answer, while the step itself was never answered: passed → the step goes on (approval, then
     * send); refused or failed → the step fails, nothing of it having been sent; in review → so is the step, until
     * an operator's decision on the dry run arrives.
     */
    private boolean applyDryRun(Step step, ToolResult r) {
        if (step.callVersion() >= 0 || !from(step, StepState.DRY_RUN, StepState.NEEDS_REVIEW)) {
            return false;
        }
        return switch (r.status()) {
            case REJECTED -> outstanding(step.state()) == StepPart.DRY_RUN
                    && store.move(step, StepState.FAILED, code(r), "dry run: " + message(r));
            case COMMITTED -> store.dryRunPassed(step);
            case FAILED_FINAL -> store.move(step, StepState.FAILED, code(r), "dry run: " + message(r));
            case NEEDS_REVIEW -> step.state() == StepState.DRY_RUN
                    && store.move(step, StepState.NEEDS_REVIEW, code(r), "dry run: " + message(r));
            default -> false;
        };
    }

    /** The compensation's answer; it answers the step's own compensation intent while that is out. */
    private boolean applyCompensation(Step step, ToolResult r) {
        return switch (r.status()) {
            case REJECTED -> outstanding(step.state()) == StepPart.COMPENSATION
                    && store.move(step, StepState.COMPENSATION_REVIEW, code(r), message(r));
            case COMMITTED -> from(step, StepState.COMPENSATING, StepState.COMPENSATION_REVIEW)
                    && store.move(step, StepState.COMPENSATED, null, null);
            case FAILED_FINAL, NEEDS_REVIEW -> step.state() == StepState.COMPENSATING
                    && store.move(step, StepState.COMPENSATION_REVIEW, code(r), message(r));
            default -> false;
        };
    }

    /**
     * Decides and does what comes next, then records the task's state and publishes its event when anything changed.
     */
    private void advance(Task task, boolean changed) {
        List<Step> steps = store.steps(task.tenantId(), task.taskId());
        Saga.Next next = Saga.decide(steps);
        for (Map.Entry<String, StepState> m : next.moves().entrySet()) {
            Step s = steps.stream().filter(x -> x.stepId().equals(m.getKey())).findFirst().orElseThrow();
            changed |= store.move(s, m.getValue(), null, null);
        }
        if (next.publish() != null) {
            send(task, next.publish(), StepPart.ACTION);
            changed |= store.move(next.publish(), StepState.RUNNING, null, null);
        }
        if (next.compensate() != null) {
            send(task, next.compensate(), StepPart.COMPENSATION);
            changed |= store.move(next.compensate(), StepState.COMPENSATING, null, null);
        }
        if (next.dryRun() != null) {
            send(task, next.dryRun(), StepPart.DRY_RUN);
            changed |= store.move(next.dryRun(), StepState.DRY_RUN, null, null);
        }
        if (changed || next.state() != task.state()) {
            String failed = task.failedStep() == null ? steps.stream().filter(s -> s.state() == StepState.FAILED)
                    .map(Step::stepId).findFirst().orElse(null) : null;
            store.setTask(task, next.state(), failed);
            Task now = store.find(task.tenantId(), task.taskId()).orElseThrow();
            events.publish(now, store.steps(task.tenantId(), task.taskId()));
            if (next.state() != task.state()) {
                log.info("task {}/{}: {} -> {}", task.tenantId(), task.taskId(), task.state(), next.state());
            }
        }
    }

    /**
     * Publishes a part of the step. A re-publication is the same intent: same key, arguments and {@code requestedAt}
     * (so the acceptance window still applies) — the compensation's asks with empty arguments under the step's own
     * key (docs/protocol.md §17); the dry run's has the step's current arguments under its own key.
     */
    private void send(Task task, Step step, StepPart part) {
        publisher.publish(dataSource, new ToolIntent(null, task.tenantId(), step.tool(), part.operation(step.operation()),
                key(task.tenantId(), task.taskId(), step.stepId(), step.argVersion(), step.key(), part),
                part == StepPart.COMPENSATION ? JsonNodeFactory.instance.objectNode() : JSON.readTree(step.argumentsJson()),
                task.taskId(), part.stepId(step.stepId()), askedAt(step, part)));
        if (part == StepPart.ACTION) {
            store.published(step);
        }
    }

    /** The key of a part of a step: the step's own, but the dry run's is its own ({@link StepKeys#dryRunKey}). */
    private static String key(String tenantId, String taskId, String stepId, int argVersion, String stepKey,
                              StepPart part) {
        return part == StepPart.DRY_RUN ? StepKeys.dryRunKey(tenantId, taskId, stepId, argVersion) : stepKey;
    }

    /** When the agent first asked for this part: a dry run is asked anew each time. */
    private static String askedAt(Step step, StepPart part) {
        Instant first = switch (part) {
            case ACTION -> step.startedAt();
            case COMPENSATION -> step.compensationStartedAt();
            case DRY_RUN -> null;
        };
        return (first == null ? Instant.now() : first).toString();
    }

    /** A step whose intent would be refused is refused now, naming the step, rather than when it is due. */
    private void checkIntent(String tenantId, String taskId, StepSpec step, StepPart part, JsonNode arguments) {
        checkIntent(tenantId, taskId, step.stepId(), step.tool(), step.operation(), part, arguments);
    }

    /** @param arguments the part's arguments; ignored for a compensation, whose are empty */
    private void checkIntent(String tenantId, String taskId, String stepId, String tool, String operation,
                             StepPart part, JsonNode arguments) {
        String wireStepId = part.stepId(stepId);
        try {
            publisher.check(new ToolIntent(null, tenantId, tool, part.operation(operation),
                    StepKeys.key(tenantId, taskId, wireStepId, 1),
                    part == StepPart.COMPENSATION ? JsonNodeFactory.instance.objectNode() : arguments, taskId,
                    wireStepId, Instant.now().toString()));
        } catch (IllegalArgumentException e) {
            throw new PlanRefusedException("step '" + wireStepId + "': " + e.getMessage());
        }
    }

    private Task locked(String tenantId, String taskId) {
        return store.lock(tenantId, taskId).orElseThrow(() -> new IllegalArgumentException("no task " + taskId
                + " of tenant " + tenantId));
    }

    private Step step(String tenantId, String taskId, String stepId) {
        return store.steps(tenantId, taskId).stream().filter(s -> s.stepId().equals(stepId)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("task " + taskId + " has no step " + stepId));
    }

    private static boolean from(Step step, StepState... states) {
        for (StepState s : states) {
            if (step.state() == s) {
                return true;
            }
        }
        return false;
    }

    private static String code(ToolResult r) {
        return r.error() == null ? null : r.error().code();
    }

    private static String message(ToolResult r) {
        return r.error() == null ? null : r.error().message();
    }
}
