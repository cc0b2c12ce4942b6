package dev.toolonce.chaos.stack;

/** Sleeps without a checked exception; an interrupt is kept and ends the sleep. */
public final class Sleep {
    private Sleep() {
    }

    public static void millis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
