package dev.toolonce.bench.drive;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/**
 * Offers work at a fixed total rate from several threads, open loop: the i-th call of a thread is due at
 * {@code start + offset + i × interval} whatever happened before, and a thread that fell behind catches up
 * without sleeping. A slow system therefore shows up as latency (measured from when the work was done) and
 * not as a silently lower offered rate, while the achieved send rate reports what the client managed.
 * Each thread gets its own {@link Worker} (e.g. its own database connection).
 */
public final class PacedLoad {
    private PacedLoad() {
    }

    /** One thread's share of the work; closed when the thread ends. */
    public interface Worker extends AutoCloseable {
        /** Does one unit of work; {@code seq} is unique across all threads of the run. */
        void once(long seq) throws Exception;

        @Override
        default void close() throws Exception {
        }
    }

    /**
     * What a run did.
     *
     * @param done    units completed
     * @param seconds wall time from the first due time until the last thread finished
     */
    public record Result(long done, double seconds) {
        public double perSecond() {
            return seconds <= 0 ? 0 : done / seconds;
        }
    }

    /**
     * Runs every unit due before {@code duration} has passed, then waits for the threads to finish them.
     *
     * @param perSecond total offered rate, above 0
     * @param threads   number of threads, each with a worker from {@code workers}
     * @throws IllegalStateException when a worker fails (the first failure, with its cause)
     */
    public static Result run(double perSecond, Duration duration, int threads, IntFunction<Worker> workers) {
        long intervalNanos = (long) (threads * 1e9 / perSecond);
        long start = System.nanoTime() + 50_000_000L; // let every thread reach its first due time
        long end = start + duration.toNanos();
        AtomicLong seq = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long offset = (long) (t * 1e9 / perSecond);
                int thread = t;
                futures.add(pool.submit(() -> {
                    try (Worker worker = workers.apply(thread)) {
                        for (long due = start + offset; due < end; due += intervalNanos) {
                            LockSupport.parkNanos(due - System.nanoTime());
                            worker.once(seq.getAndIncrement());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            return new Result(seq.get(), (System.nanoTime() - start) / 1e9);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("a load thread failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }
}
