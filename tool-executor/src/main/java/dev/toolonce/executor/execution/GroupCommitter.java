package dev.toolonce.executor.execution;

import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.outcome.ToolOutcome;
import dev.toolonce.executor.execution.Completion.Recording;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit of completions (docs/protocol.md §19): workers hand in their recordings and wait; a few
 * committer threads each take whatever has queued up and record it in one transaction. Under load one
 * commit then carries many calls (their guarded updates, ledger notes, answers and waiting duplicates'
 * answers); when idle a recording is committed at once, alone. Nothing about a call's guard changes: each
 * call is still its own guarded update, and a worker returns only once its call's outcome is durable.
 *
 * <p>A group whose transaction fails is recorded again one call per transaction, so one call that cannot
 * be recorded fails alone and its worker sees the error (its lease expires and the sweeper decides).
 */
public final class GroupCommitter {
    private static final Logger log = LoggerFactory.getLogger(GroupCommitter.class);

    private final Completion completion;
    private final int maxGroup;
    private final BlockingQueue<Waiting> queue = new LinkedBlockingQueue<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running;

    private record Waiting(Recording recording, CompletableFuture<Optional<ToolCall>> done) {
    }

    /**
     * @param completion what records a group
     * @param committers how many groups may commit at the same time
     * @param maxGroup   the most calls one transaction records
     */
    public GroupCommitter(Completion completion, int committers, int maxGroup) {
        this.completion = completion;
        this.maxGroup = maxGroup;
        for (int i = 1; i <= committers; i++) {
            Thread t = new Thread(this::run, "completion-committer-" + i);
            t.setDaemon(true);
            threads.add(t);
        }
    }

    public void start() {
        running = true;
        threads.forEach(Thread::start);
    }

    /** Stops taking new groups once the queue is empty; waits a little for the committers to finish. */
    public void stop() {
        running = false;
        for (Thread t : threads) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Records one attempt with whatever else is waiting, and returns once it is committed: the lifecycle's move is
     * decided here, on the caller's thread ({@link Completion#prepare}), and written by a committer thread with the
     * rest of its group ({@link Completion#recordAll}).
     *
     * @return the call as recorded, or empty when its guard was lost
     */
    public Optional<ToolCall> record(ToolCall claimed, ToolOutcome outcome) throws InterruptedException {
        Waiting w = new Waiting(completion.prepare(claimed, outcome), new CompletableFuture<>());
        queue.add(w);
        try {
            return w.done().get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }

    private void run() {
        while (running || !queue.isEmpty()) {
            try {
                Waiting first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                List<Waiting> group = new ArrayList<>();
                group.add(first);
                queue.drainTo(group, maxGroup - 1);
                commit(group);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Throwable t) {
                // commit() completes every future itself; this only keeps the thread alive through a bug.
                log.error("completion committer round failed", t);
            }
        }
    }

    private void commit(List<Waiting> group) {
        try {
            List<Optional<ToolCall>> done = completion.recordAll(group.stream().map(Waiting::recording).toList());
            for (int i = 0; i < group.size(); i++) {
                group.get(i).done().complete(done.get(i));
            }
        } catch (Throwable groupFailure) {
            if (group.size() == 1) {
                group.get(0).done().completeExceptionally(groupFailure);
                return;
            }
            log.warn("recording a group of {} calls failed ({}); recording them one by one", group.size(),
                    groupFailure.toString());
            for (Waiting w : group) {
                try {
                    w.done().complete(completion.recordAll(List.of(w.recording())).get(0));
                } catch (Throwable alone) {
                    w.done().completeExceptionally(alone);
                }
            }
        }
    }
}
