package dev.toolonce.relay.connector;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The storage under Debezium's change event queue, plus what that queue lacks: a way to sleep
 * until an event arrives. Debezium's own {@code ChangeEventQueue.poll()} returns only when a
 * batch is full or {@code poll.interval.ms} has passed, and near the end of every interval it
 * spins on the CPU for up to a millisecond; {@link ArrivalPoll} sleeps here instead and drains
 * the queue as soon as the first event is in. Plain Java: {@link RelayPostgresTask} is what
 * plugs it under Debezium's queue.
 *
 * <p>{@link #enqueue} and {@link #poll} run under the change event queue's lock (one producer,
 * the streaming thread; one consumer, the engine's poll thread); {@link #size()},
 * {@link #enqueued()} and {@link #awaitEvents} may be called without it. One waiter at a time.
 *
 * @param <T> Debezium's queued event type
 */
final class ArrivalQueue<T> {

    private final Queue<T> events = new ArrayDeque<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicLong enqueued = new AtomicLong();
    private volatile Thread waiter;

    /** Adds an event and wakes the waiter, if any. */
    void enqueue(T event) {
        events.add(event);
        size.incrementAndGet();
        enqueued.incrementAndGet();
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /** @return the oldest event, or null when there is none */
    T poll() {
        T event = events.poll();
        if (event != null) {
            size.decrementAndGet();
        }
        return event;
    }

    /** @return the number of events queued now */
    int size() {
        return size.get();
    }

    /** @return how many events were ever queued here (to tell whether Debezium uses this queue at all) */
    long enqueued() {
        return enqueued.get();
    }

    /**
     * Sleeps until at least one event is queued or {@code timeout} has passed, without spinning.
     *
     * @return whether an event is queued
     * @throws InterruptedException when the engine interrupts its poll thread (it is stopping)
     */
    boolean awaitEvents(Duration timeout) throws InterruptedException {
        if (size.get() > 0) {
            return true;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        waiter = Thread.currentThread();
        try {
            while (size.get() == 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                LockSupport.parkNanos(this, left);
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
            return true;
        } finally {
            waiter = null;
        }
    }
}
