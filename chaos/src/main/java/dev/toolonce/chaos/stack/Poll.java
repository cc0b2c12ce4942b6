package dev.toolonce.chaos.stack;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Reads a value until it is what one waits for or a deadline passes; the last value read is returned either way. */
public final class Poll {
    private Poll() {
    }

    public static <T> T until(Supplier<T> read, Predicate<? super T> done, Duration within, Duration every) {
        long deadline = System.nanoTime() + within.toNanos();
        T value = read.get();
        while (!done.test(value) && System.nanoTime() < deadline) {
            Sleep.millis(every.toMillis());
            value = read.get();
        }
        return value;
    }
}
