package dev.toolonce.relay.connector;

import java.util.List;
import java.util.Map;

import org.apache.kafka.connect.source.SourceRecord;

import io.debezium.config.Configuration;
import io.debezium.connector.base.QueueProvider;
import io.debezium.connector.base.QueueProviderService;
import io.debezium.connector.postgresql.PostgresConnectorTask;
import io.debezium.connector.postgresql.PostgresOffsetContext;
import io.debezium.connector.postgresql.PostgresPartition;
import io.debezium.pipeline.ChangeEventSourceCoordinator;
import io.debezium.service.spi.ServiceProvider;
import io.debezium.service.spi.ServiceRegistry;

/**
 * Debezium's PostgreSQL task with a poll that hands events over as soon as they arrive
 * ({@link ArrivalPoll} says how batches are cut). <b>The only class of the relay that uses
 * Debezium internals</b>; everything else talks to Debezium through its published embedding API
 * ({@code io.debezium.engine.DebeziumEngine}, its callbacks, and the connector's configuration).
 *
 * <p><b>Why.</b> Debezium's change event queue returns a batch only when it is full
 * ({@code max.batch.size}) or when {@code poll.interval.ms} has passed, spinning for up to a
 * millisecond at the end of every interval; the same interval is also how long the streaming
 * thread sleeps when the replication stream is empty. Through configuration alone, latency is
 * bought with idle CPU, or ({@code max.batch.size=1}) with one Kafka round trip per event. No
 * published API reaches that queue: {@code DebeziumEngine.ChangeConsumer} and the async engine's
 * record processing receive what the task's poll already returned, and the notification and
 * signal channels carry snapshot and control messages, not change events.
 *
 * <p><b>Which internals</b> (Debezium 3.6.1; {@code DebeziumInternalsTest} checks each by reflection
 * and fails with the name of whatever an upgrade removed or changed):
 * <ol>
 *   <li>{@code io.debezium.connector.postgresql.PostgresConnectorTask}, subclassed through
 *       {@link RelayPostgresConnector#taskClass()}: its protected {@code start(Configuration)},
 *       {@code registerServiceProviders(ServiceRegistry)} (declared by {@code BaseSourceTask}, called
 *       from {@code start} before the change event queue is built) and {@code doPoll()}
 *       ({@code BaseSourceTask}'s hook behind Kafka Connect's {@code poll()});</li>
 *   <li>{@code io.debezium.service.spi.ServiceRegistry} / {@code ServiceProvider}: a provider
 *       registered after Debezium's own for the same service class replaces it
 *       ({@code DefaultServiceRegistry} keys providers by service class);</li>
 *   <li>{@code io.debezium.connector.base.QueueProviderService} wrapping a
 *       {@code QueueProvider}: the task builds its {@code ChangeEventQueue} over
 *       {@code getService(QueueProviderService.class).getQueueProvider()}, and calls the provider's
 *       {@code enqueue} and {@code poll} under the queue's lock.</li>
 * </ol>
 *
 * <p><b>What breaks on an upgrade.</b> A renamed or removed class or method fails the build or
 * {@code DebeziumInternalsTest}. A change of behaviour that keeps the signatures (the queue's storage
 * chosen some other way, {@code registerServiceProviders} no longer called before the queue is built)
 * cannot fail a compile: events then still flow, through Debezium's own storage, but each waits up to
 * {@link ArrivalPoll#IDLE_WAIT}; {@link ArrivalPoll} logs an ERROR the first time that happens. Debezium
 * 3.x also has a {@code queue.provider.type} option that picks a {@code QueueProvider} by name through
 * {@link java.util.ServiceLoader}; it would replace the service registry part, but not the subclass, and
 * hands the task no reference to the instance it creates, so it is not used.
 *
 * <p>Nothing about offsets changes: the records, their order and their source offsets are exactly what
 * Debezium's own poll would have returned, only in differently cut batches.
 */
public class RelayPostgresTask extends PostgresConnectorTask {

    /** Engine property: the most events one {@link #doPoll()} returns (the relay's max-batch-size). */
    public static final String MAX_BATCH = "toolonce.relay.max.batch.size";

    private volatile ArrivalPoll<SourceRecord> arrivals;
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
        ArrivalQueue<Object> queue = new ArrivalQueue<>();
        install(serviceRegistry, queue);
        arrivals = new ArrivalPoll<>(queue, maxBatch, super::doPoll);
    }

    /** See {@link ArrivalPoll#next()}; Debezium's own poll until the queue is installed. */
    @Override
    public List<SourceRecord> doPoll() throws InterruptedException {
        ArrivalPoll<SourceRecord> poll = arrivals;
        return poll == null ? super.doPoll() : poll.next();
    }

    /** Registers {@code queue} as the storage of the change event queue that the task builds next. */
    static void install(ServiceRegistry registry, ArrivalQueue<Object> queue) {
        QueueProviderService service = new QueueProviderService(new ArrivalStorage<>(queue));
        registry.registerServiceProvider(new ServiceProvider<QueueProviderService>() {
            @Override
            public QueueProviderService createService(Configuration configuration, ServiceRegistry registry) {
                return service;
            }

            @Override
            public Class<QueueProviderService> getServiceClass() {
                return QueueProviderService.class;
            }
        });
    }

    /** Debezium's queue storage SPI over the plain {@link ArrivalQueue}. */
    static final class ArrivalStorage<T> implements QueueProvider<T> {
        private final ArrivalQueue<T> queue;

        ArrivalStorage(ArrivalQueue<T> queue) {
            this.queue = queue;
        }

        ArrivalQueue<T> queue() {
            return queue;
        }

        @Override
        public String name() {
            return "toolonce-relay";
        }

        @Override
        public void configure(Map<String, ?> properties) {
            // nothing to configure: the change event queue bounds the size
        }

        @Override
        public void enqueue(T event) {
            queue.enqueue(event);
        }

        @Override
        public T poll() {
            return queue.poll();
        }

        @Override
        public int size() {
            return queue.size();
        }
    }
}
