package dev.toolonce.agent.task;

/** A plan refused at submission; the message names the step(s) and the rule. Nothing was written. */
public final class PlanRefusedException extends IllegalArgumentException {
    public PlanRefusedException(String message) {
        super(message);
    }
}
