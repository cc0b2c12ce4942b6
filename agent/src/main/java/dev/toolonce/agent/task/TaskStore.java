package dev.toolonce.agent.task;

import dev.toolonce.jdbc.SqlNames;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * The tables of the task checkpoint, {@code agent_task} and {@code agent_task_step}: the plan and the saga's state.
 * The outcomes of a step's calls are not here: {@code agent_step} (written by {@code StepResults}) is their one record,
 * and a step is read through the view {@code agent_task_step_outcome}, which joins each part's row of the step's
 * current key (migration V8, docs/agent-tasks.md §4a). Every change of a task runs
 * after {@link #lock} in the same transaction: the task row is the one lock, so concurrent results, resumes and
 * approvals of one task serialise, and each step change is also guarded by the state it leaves.
 */
public final class TaskStore {
    private static final String TASK_COLUMNS = "task_id, tenant_id, state, version, failed_step, note";
    private static final String STEP_COLUMNS = """
            tenant_id, task_id, step_id, position, tool, operation, arguments, arg_version, idempotency_key, compensable,
            irreversible, needs_approval, approved_key, approved_by, state, call_version, compensation_version,
            external_object_id, compensation_external_id, error_code, error_message, publishes, started_at, finished_at,
            compensation_started_at, compensated_at, dry_run, dry_run_passed_key, dry_run_version""";
    @SqlMoves.Task(from = {}, to = TaskState.RUNNING)
    private static final String INSERT_TASK = """
            INSERT INTO %s.agent_task (task_id, tenant_id, state) VALUES (?, ?, 'RUNNING')
            ON CONFLICT (tenant_id, task_id) DO NOTHING
            """;
    @SqlMoves.Step(from = {}, to = StepState.PENDING)
    private static final String INSERT_STEP = """
            INSERT INTO %s.agent_task_step (tenant_id, task_id, step_id, position, tool, operation, arguments,
                idempotency_key, compensable, irreversible, needs_approval, dry_run, dry_run_key, state)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING')
            """;
    private static final String LOCK = "SELECT %2$s FROM %1$s.agent_task WHERE tenant_id = ? AND task_id = ? FOR UPDATE";
    private static final String FIND = "SELECT %2$s FROM %1$s.agent_task WHERE tenant_id = ? AND task_id = ?";
    private static final String EXISTING = """
            SELECT t.tenant_id, t.task_id FROM %1$s.agent_task t
              JOIN unnest(?::text[], ?::text[]) AS k (tenant_id, task_id)
                ON t.tenant_id = k.tenant_id AND t.task_id = k.task_id
            """;
    private static final String FIND_ANY = """
            SELECT %2$s FROM %1$s.agent_task
             WHERE task_id = ? AND (CAST(? AS text[]) IS NULL OR tenant_id = ANY(CAST(? AS text[]))) ORDER BY tenant_id
            """;
    private static final String STEPS = """
            SELECT %2$s FROM %1$s.agent_task_step_outcome WHERE tenant_id = ? AND task_id = ? ORDER BY position
            """;
    private static final String OPEN = """
            SELECT %2$s FROM %1$s.agent_task WHERE state NOT IN ('SUCCEEDED', 'COMPENSATED', 'FAILED')
            ORDER BY updated_at LIMIT ?
            """;
    private static final String LIST = """
            SELECT %2$s FROM %1$s.agent_task
             WHERE CAST(? AS text[]) IS NULL OR tenant_id = ANY(CAST(? AS text[])) ORDER BY created_at DESC LIMIT ?
            """;
    /** A guarded change of the task: only from the state the caller saw (and locked). */
    @SqlMoves.Parameters(checkedBy = "setTask")
    private static final String SET_TASK = """
            UPDATE %s.agent_task SET state = ?, failed_step = coalesce(?, failed_step), version = version + 1,
                   updated_at = clock_timestamp(),
                   finished_at = CASE WHEN ? THEN clock_timestamp() ELSE finished_at END
             WHERE tenant_id = ? AND task_id = ? AND state = ?
            """;
    /** A guarded step move: only from the state the caller saw, with the saga's reason for it when there is one. */
    @SqlMoves.Parameters(checkedBy = "move")
    private static final String MOVE = """
            UPDATE %s.agent_task_step
               SET state = ?, updated_at = clock_timestamp(),
                   error_code = coalesce(?, error_code), error_message = coalesce(?, error_message),
                   started_at = CASE WHEN ? = 'RUNNING' THEN coalesce(started_at, clock_timestamp()) ELSE started_at END,
                   finished_at = CASE WHEN ? IN ('COMMITTED', 'FAILED') THEN clock_timestamp() ELSE finished_at END,
                   compensation_started_at = CASE WHEN ? = 'COMPENSATING' THEN clock_timestamp()
                                                  ELSE compensation_started_at END,
                   compensated_at = CASE WHEN ? = 'COMPENSATED' THEN clock_timestamp() ELSE compensated_at END
             WHERE tenant_id = ? AND task_id = ? AND step_id = ? AND state = ?
            """;
    private static final String PUBLISHED = """
            UPDATE %s.agent_task_step SET publishes = publishes + 1 WHERE tenant_id = ? AND task_id = ? AND step_id = ?
            """;
    private static final String APPROVE = """
            UPDATE %s.agent_task_step SET approved_key = idempotency_key, approved_by = ?, approved_at = clock_timestamp(),
                   updated_at = clock_timestamp()
             WHERE tenant_id = ? AND task_id = ? AND step_id = ? AND state IN ('PENDING', 'DRY_RUN', 'AWAITING_APPROVAL')
            """;
    private static final String NEW_ARGUMENTS = """
            UPDATE %s.agent_task_step SET arguments = ?, arg_version = arg_version + 1, idempotency_key = ?,
                   dry_run_key = ?, approved_key = NULL, approved_by = NULL, approved_at = NULL,
                   dry_run_passed_key = NULL, updated_at = clock_timestamp()
             WHERE tenant_id = ? AND task_id = ? AND step_id = ? AND state IN ('PENDING', 'AWAITING_APPROVAL') AND arg_version = ?
            """;

    /** The dry run of the step's current key passed: it goes back to waiting for its turn (approval, then send). */
    @SqlMoves.Step(from = {StepState.DRY_RUN, StepState.NEEDS_REVIEW}, to = StepState.PENDING)
    private static final String DRY_RUN_PASSED = """
            UPDATE %s.agent_task_step SET state = 'PENDING', dry_run_passed_key = idempotency_key,
                   updated_at = clock_timestamp()
             WHERE tenant_id = ? AND task_id = ? AND step_id = ? AND state IN ('DRY_RUN', 'NEEDS_REVIEW') AND idempotency_key = ?
            """;

    private final JdbcTemplate jdbc;
    private final String insertTask;
    private final String insertStep;
    private final String lock;
    private final String find;
    private final String existing;
    private final String findAny;
    private final String steps;
    private final String open;
    private final String list;
    private final String setTask;
    private final String move;
    private final String published;
    private final String approve;
    private final String newArguments;
    private final String dryRunPassed;

    public TaskStore(JdbcTemplate jdbc, String schema) {
        SqlNames.schema(schema);
        this.jdbc = jdbc;
        this.insertTask = INSERT_TASK.formatted(schema);
        this.insertStep = INSERT_STEP.formatted(schema);
        this.lock = LOCK.formatted(schema, TASK_COLUMNS);
        this.find = FIND.formatted(schema, TASK_COLUMNS);
        this.existing = EXISTING.formatted(schema);
        this.findAny = FIND_ANY.formatted(schema, TASK_COLUMNS);
        this.steps = STEPS.formatted(schema, STEP_COLUMNS);
        this.open = OPEN.formatted(schema, TASK_COLUMNS);
        this.list = LIST.formatted(schema, TASK_COLUMNS);
        this.setTask = SET_TASK.formatted(schema);
        this.move = MOVE.formatted(schema);
        this.published = PUBLISHED.formatted(schema);
        this.approve = APPROVE.formatted(schema);
        this.newArguments = NEW_ARGUMENTS.formatted(schema);
        this.dryRunPassed = DRY_RUN_PASSED.formatted(schema);
    }

    /** @return false when the tenant has a task with this id already (nothing written) */
    public boolean insert(Plan plan) {
        if (jdbc.update(insertTask, plan.taskId(), plan.tenantId()) == 0) {
            return false;
        }
        int position = 0;
        for (StepSpec s : plan.steps()) {
            jdbc.update(insertStep, plan.tenantId(), plan.taskId(), s.stepId(), ++position, s.tool(), s.operation(),
                    s.arguments().toString(), StepKeys.key(plan.tenantId(), plan.taskId(), s.stepId(), 1),
                    s.compensable(), s.irreversible(), s.needsApproval(), s.dryRun(),
                    StepKeys.dryRunKey(plan.tenantId(), plan.taskId(), s.stepId(), 1));
        }
        return true;
    }

    /** Reads and locks the task row until the transaction ends. */
    public Optional<Task> lock(String tenantId, String taskId) {
        return jdbc.query(lock, TASK, tenantId, taskId).stream().findFirst();
    }

    /**
     * Which of these tasks exist, in one statement, without locking them: {@code [tenantId, taskId]} pairs.
     *
     * @param tasks {@code [tenantId, taskId]} pairs
     */
    public Set<List<String>> existing(List<List<String>> tasks) {
        if (tasks.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.query(con -> {
            var ps = con.prepareStatement(existing);
            ps.setArray(1, con.createArrayOf("text", tasks.stream().map(t -> t.get(0)).toArray()));
            ps.setArray(2, con.createArrayOf("text", tasks.stream().map(t -> t.get(1)).toArray()));
            return ps;
        }, (rs, i) -> List.of(rs.getString(1), rs.getString(2))));
    }

    public Optional<Task> find(String tenantId, String taskId) {
        return jdbc.query(find, TASK, tenantId, taskId).stream().findFirst();
    }

    /** The tasks of these tenants (null: of every tenant) that have this id, by tenant. */
    public List<Task> withId(String taskId, String[] tenants) {
        return jdbc.query(findAny, TASK, taskId, tenants, tenants);
    }

    public List<Step> steps(String tenantId, String taskId) {
        return jdbc.query(steps, STEP, tenantId, taskId);
    }

    /** Tasks that are not final, least recently changed first. */
    public List<Task> open(int limit) {
        return jdbc.query(open, TASK, limit);
    }

    /** The newest tasks of these tenants (null: of every tenant). */
    public List<Task> list(String[] tenants, int limit) {
        return jdbc.query(list, TASK, tenants, tenants, limit);
    }

    /**
     * Sets the task's state and bumps its version (every change of a task or its steps calls this once), from the
     * state of {@code task}, which the caller locked.
     *
     * @throws IllegalTaskTransitionException when {@link TaskTransitions} does not allow the change
     * @throws IllegalStateException when the task is no longer in the state of {@code task} (it was not locked)
     */
    public void setTask(Task task, TaskState state, String failedStep) {
        TaskTransitions.check(task.state(), state);
        if (jdbc.update(setTask, state.name(), failedStep, state.isFinal(), task.tenantId(), task.taskId(),
                task.state().name()) != 1) {
            throw new IllegalStateException("task " + task.tenantId() + "/" + task.taskId() + " left " + task.state()
                    + " while its lock was held");
        }
    }

    /**
     * A guarded step move. The outcome of the call that caused it is in {@code agent_step} already; the step keeps
     * only the saga's reason for its new state.
     *
     * @param errorCode    why the saga moved the step (kept when null)
     * @param errorMessage its message (kept when null)
     * @return whether the step was still in the state of {@code s}
     * @throws IllegalTaskTransitionException when {@link StepTransitions} does not allow the move
     */
    public boolean move(Step s, StepState to, String errorCode, String errorMessage) {
        String t = StepTransitions.check(s.state(), to).name();
        return jdbc.update(move, t, errorCode, errorMessage, t, t, t, t, s.tenantId(), s.taskId(), s.stepId(),
                s.state().name()) == 1;
    }

    public void published(Step s) {
        jdbc.update(published, s.tenantId(), s.taskId(), s.stepId());
    }

    /** @return false when the step was already sent */
    public boolean approve(Step s, String operator) {
        return jdbc.update(approve, operator, s.tenantId(), s.taskId(), s.stepId()) == 1;
    }

    /**
     * The dry run of the step's current key passed: the step is {@code PENDING} again.
     *
     * @return false when the step moved or changed meanwhile
     * @throws IllegalTaskTransitionException when the step is in a state that a passed dry run cannot leave
     */
    public boolean dryRunPassed(Step s) {
        StepTransitions.check(s.state(), StepState.PENDING);
        return jdbc.update(dryRunPassed, s.tenantId(), s.taskId(), s.stepId(), s.key()) == 1;
    }

    /**
     * @param newKey       the step's key for its new arguments
     * @param newDryRunKey the key of its dry run for them ({@link StepKeys#dryRunKey})
     * @return false when the step was sent or changed meanwhile
     */
    public boolean newArguments(Step s, String argumentsJson, String newKey, String newDryRunKey) {
        return jdbc.update(newArguments, argumentsJson, newKey, newDryRunKey, s.tenantId(), s.taskId(), s.stepId(),
                s.argVersion()) == 1;
    }

    private static final RowMapper<Task> TASK = (rs, i) -> new Task(rs.getString("task_id"), rs.getString("tenant_id"),
            TaskState.valueOf(rs.getString("state")), rs.getLong("version"), rs.getString("failed_step"),
            rs.getString("note"));

    private static final RowMapper<Step> STEP = TaskStore::step;

    private static Step step(ResultSet rs, int i) throws SQLException {
        return new Step(rs.getString("tenant_id"), rs.getString("task_id"), rs.getString("step_id"), rs.getInt("position"), rs.getString("tool"),
                rs.getString("operation"), rs.getString("arguments"), rs.getInt("arg_version"),
                rs.getString("idempotency_key"), rs.getBoolean("compensable"), rs.getBoolean("irreversible"),
                rs.getBoolean("needs_approval"), rs.getString("approved_key"), rs.getString("approved_by"),
                StepState.valueOf(rs.getString("state")), rs.getLong("call_version"),
                rs.getLong("compensation_version"), rs.getString("external_object_id"),
                rs.getString("compensation_external_id"), rs.getString("error_code"), rs.getString("error_message"),
                rs.getInt("publishes"), instant(rs, "started_at"), instant(rs, "finished_at"),
                instant(rs, "compensation_started_at"), instant(rs, "compensated_at"), rs.getBoolean("dry_run"),
                rs.getString("dry_run_passed_key"), rs.getLong("dry_run_version"));
    }

    private static java.time.Instant instant(ResultSet rs, String column) throws SQLException {
        java.sql.Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
