package dev.toolonce.agent.task;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declarations of the moves an SQL constant of {@link TaskStore} makes, so that SQL cannot carry a move the tables
 * ({@link StepTransitions}, {@link TaskTransitions}) do not allow. {@code TaskSqlTransitionsTest} finds every
 * statement of this module that writes {@code agent_task.state} or {@code agent_task_step.state}, fails for one
 * without a declaration, and checks every declared pair against its table (as the executor's
 * {@code SqlTransitionsTest} does for the ledger).
 */
final class SqlMoves {
    private SqlMoves() {
    }

    /** A statement that moves steps from any of {@link #from()} (none: it creates them) to {@link #to()}. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    @interface Step {
        StepState[] from();

        StepState to();
    }

    /** A statement that moves tasks from any of {@link #from()} (none: it creates them) to {@link #to()}. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    @interface Task {
        TaskState[] from();

        TaskState to();
    }

    /**
     * A statement that takes both states as bind parameters: {@link #checkedBy()} names the method of the same class
     * that passes every pair through its table's {@code check} before it runs the statement.
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    @interface Parameters {
        String checkedBy();
    }
}
