package dev.toolonce.chaos.faults;

import java.util.List;

/**
 * What one injection attempt did.
 *
 * @param count    faults that demonstrably fired (a crash point halted the JVM with 137, the sandbox counted its
 *                 fault, a signal reached a live process, the DLQ holds the poison); 0 fails the experiment
 * @param atNanos  {@link System#nanoTime()} of each fired fault: the start of its recovery time
 * @param note     what happened, for the progress line
 */
public record Injection(int count, List<Long> atNanos, String note) {

    public static Injection fired(long atNanos, String note) {
        return new Injection(1, List.of(atNanos), note);
    }

    public static Injection missed(String note) {
        return new Injection(0, List.of(), note);
    }
}
