package dev.toolonce.agent.task;

/**
 * Thrown when code asks for a move of a step's or a task's state that {@link StepTransitions} or
 * {@link TaskTransitions} does not allow: a bug in the engine, never an answer to a result or a request.
 */
public final class IllegalTaskTransitionException extends IllegalStateException {
    private final Enum<?> from;
    private final Enum<?> to;

    public IllegalTaskTransitionException(String what, Enum<?> from, Enum<?> to) {
        super("illegal " + what + " transition " + from + " -> " + to);
        this.from = from;
        this.to = to;
    }

    /** The state left, a {@link StepState} or a {@link TaskState}. */
    public Enum<?> from() {
        return from;
    }

    /** The state asked for, of the same type as {@link #from()}. */
    public Enum<?> to() {
        return to;
    }
}
