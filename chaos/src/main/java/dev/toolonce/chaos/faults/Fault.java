package dev.toolonce.chaos.faults;

/**
 * One kind of fault of the experiment, injected deterministically while the workload runs.
 *
 * @param name        its name on the command line ({@code --faults a,b}) and in the report
 * @param description one line for the report
 * @param action      injects it once and restores the stack (restarts what it killed), then reports whether it fired
 */
public record Fault(String name, String description, Action action) {

    /** Injects the fault once; the stack must be whole again when it returns. */
    @FunctionalInterface
    public interface Action {
        Injection inject(FaultContext ctx) throws Exception;
    }
}
