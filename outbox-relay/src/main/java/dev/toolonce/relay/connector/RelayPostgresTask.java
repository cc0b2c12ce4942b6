package dev.toolonce.relay.connector;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.apache.kafka.connect.source.SourceRecord;

import io.debezium.config.Configuration;
import io.debezium.connector.base.QueueProviderService;
import io.debezium.connector.postgresql.PostgresConnectorTask;
import io.debezium.connector.postgresql.PostgresOffsetContext;
import io.debezium.connector.postgresql.PostgresPartition;
import io.debezium.pipeline.ChangeEventSourceCoordinator;
import io.debezium.service.spi.ServiceProvider;
import io.debezium.service.spi.ServiceRegistry;

/**
 * Debezium's PostgreSQL task with a poll that hands events over as soon as they arrive.
 *
 * <p>Debezium's change event queue returns a batch only when it is full ({@code max.batch.size})
 * or when {@code poll.interval.ms} has passed, and spins for up to a millisecond at the end of
 * every interval; the same interval is also how long the streaming thread sleeps when the
 * replication stream is empty. One setting thus bought latency with idle CPU twice. Here the
 * queue is built with {@code max.batch.size=1}, so that each of its polls returns at once when one
 * event is queued, over an {@link ArrivalQueue}, which lets this task sleep until an event
 * arrives; {@link #doPoll()} then drains whatever is queued, up to {@link #MAX_BATCH} events.
 * {@code poll.interval.ms} is left to bound only the streaming thread's sleep.
 *
 * <p>A poll that had to wait for its first event lingers {@link #LINGER} before draining, so that
 * a steady stream is handed over in small batches rather than one event at a time: every batch
 * costs a few thread hand-offs and a Kafka round trip, and one-event batches at thousands of
 * events per second cost more CPU than the events themselves. A poll that finds events already
 * queued (they arrived while the previous batch was being sent) drains them at once.
 *
 * <p>Nothing about offsets changes: the records, their order and their source offsets are
 * exactly what Debezium's own poll would have returned, only in differently cut batches.
 */
public class RelayPostgresTask extends PostgresConnectorTask {

    /** Engine property: the most events one {@link #doPoll()} returns (the relay's max-batch-size). */
    public static final String MAX_BATCH = "toolonce.relay.max.batch.size";
    /**
     * How long a poll sleeps when nothing arrives before it lets Debezium's own poll run once: that
     * surfaces a failure of the streaming thread (a lost connection) and lets the engine check
     * whether it is stopping and flush offsets after a quiet period.
     */
    static final Duration IDLE_WAIT = Duration.ofMillis(500);
    /** How long a poll that woke up for one event waits for more before it hands them over. */
    static final Duration LINGER = Duration.ofMillis(1);

    private volatile ArrivalQueue<?> arrivals;
    private int maxBatch = 2048;

    @Override
    public ChangeEventSourceCoordinator<PostgresPartition, PostgresOffsetContext> start(Configuration config) {
        maxBatch = config.getInteger(MAX_BATCH, 2048);
        return super.start(config);
    }

    /** Replaces Debezium's in-memory queue storage with a fresh {@link ArrivalQueue} at every start. */
    @Override
    protected void registerServiceProviders(ServiceRegistry serviceRegistry) {
        super.registerServiceProviders(serviceRegistry);
        ArrivalQueue<?> queue = new ArrivalQueue<>();
        arrivals = queue;
        serviceRegistry.registerServiceProvider(new ServiceProvider<QueueProviderService>() {
            @Override
            public QueueProviderService createService(Configuration configuration, ServiceRegistry registry) {
                return new QueueProviderService(queue);
            }

            @Override
            public Class<QueueProviderService> getServiceClass() {
                return QueueProviderService.class;
            }
        });
    }

    /**
     * Returns the queued events (up to {@link #MAX_BATCH}): at once when some are queued already,
     * {@link #LINGER} after the first one arrived otherwise; after {@link #IDLE_WAIT} without any,
     * Debezium's own poll (which throws a streaming failure).
     */
    @Override
    public List<SourceRecord> doPoll() throws InterruptedException {
        ArrivalQueue<?> queue = arrivals;
        if (queue == null) {
            return super.doPoll();
        }
        if (queue.size() == 0) {
            if (!queue.awaitEvents(IDLE_WAIT)) {
                return super.doPoll();
            }
            LockSupport.parkNanos(LINGER.toNanos());
        }
        List<SourceRecord> batch = new ArrayList<>(Math.min(maxBatch, queue.size()));
        do {
            batch.addAll(super.doPoll()); // max.batch.size=1 and an event queued: returns at once
        } while (batch.size() < maxBatch && queue.size() > 0);
        return batch;
    }
}
