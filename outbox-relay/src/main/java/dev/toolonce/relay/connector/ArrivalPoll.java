package dev.toolonce.relay.connector;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the relay's task cuts batches out of the {@link ArrivalQueue} under Debezium's change event
 * queue; plain Java, so that the policy is read and tested without Debezium.
 *
 * <p>The change event queue is built with {@code max.batch.size=1}, so each of its polls returns at
 * once when one event is queued. {@link #next} sleeps on the arrival queue until an event arrives,
 * then calls that poll until the batch holds {@code maxBatch} events or the queue is empty. A poll
 * that had to wait for its first event lingers {@link #LINGER} before draining, so that a steady
 * stream is handed over in small batches rather than one event at a time: every batch costs a few
 * thread hand-offs and a Kafka round trip, and one-event batches at thousands of events per second
 * cost more CPU than the events themselves. A poll that finds events already queued (they arrived
 * while the previous batch was being sent) drains them at once. After {@link #IDLE_WAIT} without an
 * event, Debezium's own poll runs once: that surfaces a failure of the streaming thread (a lost
 * connection) and lets the engine check whether it is stopping and flush offsets after a quiet period.
 *
 * <p>The records, their order and their source offsets are exactly what Debezium's own polls return,
 * only in differently cut batches. Called from the engine's poll thread only.
 *
 * @param <R> the record type
 */
final class ArrivalPoll<R> {

    /** How long a poll sleeps when nothing arrives before it lets Debezium's own poll run once. */
    static final Duration IDLE_WAIT = Duration.ofMillis(500);
    /** How long a poll that woke up for one event waits for more before it hands them over. */
    static final Duration LINGER = Duration.ofMillis(1);
    private static final Logger log = LoggerFactory.getLogger(ArrivalPoll.class);

    /** One poll of Debezium's change event queue. */
    @FunctionalInterface
    interface QueuePoll<R> {
        List<R> poll() throws InterruptedException;
    }

    private final ArrivalQueue<?> arrivals;
    private final int maxBatch;
    private final QueuePoll<R> debeziumPoll;
    private boolean bypassReported;

    ArrivalPoll(ArrivalQueue<?> arrivals, int maxBatch, QueuePoll<R> debeziumPoll) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, got " + maxBatch);
        }
        this.arrivals = arrivals;
        this.maxBatch = maxBatch;
        this.debeziumPoll = debeziumPoll;
    }

    /**
     * @return the queued events (up to the batch size): at once when some are queued already,
     *         {@link #LINGER} after the first one arrived otherwise; after {@link #IDLE_WAIT} without
     *         any, what Debezium's own poll returns (it throws a streaming failure)
     * @throws InterruptedException when the engine stops its poll thread
     */
    List<R> next() throws InterruptedException {
        if (arrivals.size() == 0) {
            if (!arrivals.awaitEvents(IDLE_WAIT)) {
                return checked(debeziumPoll.poll());
            }
            LockSupport.parkNanos(LINGER.toNanos());
        }
        List<R> batch = new ArrayList<>(Math.min(maxBatch, arrivals.size()));
        do {
            batch.addAll(debeziumPoll.poll()); // max.batch.size=1 and an event queued: returns at once
        } while (batch.size() < maxBatch && arrivals.size() > 0);
        return batch;
    }

    /**
     * Records that came although nothing ever arrived here mean Debezium no longer stores its events in the
     * arrival queue (an upgrade changed how the queue's storage is chosen): still correct, but every event then
     * waits up to {@link #IDLE_WAIT}. Said once, loudly, rather than found in a latency graph.
     */
    private List<R> checked(List<R> records) {
        if (!records.isEmpty() && arrivals.enqueued() == 0 && !bypassReported) {
            bypassReported = true;
            log.error("Debezium delivered {} change events that never passed the relay's arrival queue: its queue "
                    + "storage is no longer the one RelayPostgresTask installs (a Debezium upgrade?). Events still "
                    + "flow, but each can wait up to {} ms; see RelayPostgresTask", records.size(),
                    IDLE_WAIT.toMillis());
        }
        return records;
    }
}
