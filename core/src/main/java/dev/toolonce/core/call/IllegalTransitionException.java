package dev.toolonce.core.call;

/** Thrown when code asks for a state change that {@link Transitions} does not allow. */
public final class IllegalTransitionException extends IllegalStateException {
    private final CallState from;
    private final CallState to;

    public IllegalTransitionException(CallState from, CallState to) {
        super("illegal tool call transition " + from + " -> " + to);
        this.from = from;
        this.to = to;
    }

    public CallState from() {
        return from;
    }

    public CallState to() {
        return to;
    }
}
