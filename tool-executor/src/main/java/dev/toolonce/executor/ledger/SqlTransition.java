package dev.toolonce.executor.ledger;

import dev.toolonce.core.call.CallState;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the moves of {@code tool_call.state} that an SQL constant makes, so that SQL cannot carry a transition
 * the one table ({@link dev.toolonce.core.call.Transitions}) does not allow. {@code SqlTransitionsTest} finds every
 * statement in the repository's main sources that writes the state column, fails for one without a declaration, and
 * checks every declared pair against the table (docs/protocol.md §4).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface SqlTransition {
    /** The states the statement moves calls out of; empty for a statement that creates calls. */
    CallState[] from();

    /** The state it moves them to. */
    CallState to();

    /**
     * States the same statement may move some of those calls on to, from {@link #to()}: a plan that claims some of its
     * calls at once writes them STARTED ({@code to = PLANNED, then = STARTED}), as a plan and a claim would.
     */
    CallState[] then() default {};

    /**
     * For a statement that takes both states as bind parameters: the method of the same class that passes every
     * pair through {@link dev.toolonce.core.call.Transitions#check} before it runs the statement.
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    @interface Parameters {
        /** The name of the checking method. */
        String checkedBy();
    }
}
