package dev.toolonce.messaging;

import java.time.Duration;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.util.backoff.FixedBackOff;

/** The Kafka container settings every ToolOnce consumer shares with {@link IsolatingBatchProcessor}. */
public final class ConsumerContainers {
    private ConsumerContainers() {
    }

    /**
     * Only infrastructure failures reach the container (the database does not answer, the DLQ does not
     * acknowledge): the batch is redelivered for ever, one second apart, because skipping it would commit
     * offsets of records never recorded. Bad records never get here: the processor dead-letters them one by one
     * and logs outages itself, rate-limited.
     */
    public static CommonErrorHandler redeliverWhileInfrastructureIsDown() {
        DefaultErrorHandler handler = new DefaultErrorHandler(new FixedBackOff(1000L, FixedBackOff.UNLIMITED_ATTEMPTS));
        handler.setLogLevel(KafkaException.Level.WARN);
        return handler;
    }

    /**
     * Offsets are still committed only after a batch's transaction committed (docs/protocol.md §5), but not after
     * every batch and without waiting for the broker's answer. At a moderate rate every poll carries a record or two,
     * and one commit per poll made offset commits a third of all the broker's requests (two per call at 150 calls/s,
     * each an append to {@code __consumer_offsets} through the group coordinator); so the container commits what has
     * been processed once per {@code interval} ({@code AckMode.TIME}), and on a rebalance or a stop. The listener does
     * not wait for the commit's answer either: a synchronous commit took 13 ms on average on the local broker (its
     * group coordinator lingers 5 ms to batch appends), and the listener polled nothing meanwhile.
     *
     * <p>A consumer that crashes redelivers what it processed since its last commit (at most about {@code interval}
     * of records), as one that crashed between its transaction and its commit always did: the ones the inbox recorded
     * it answers as duplicates, and a record that was refused or dead-lettered is dead-lettered again. A commit that
     * is lost or fails (on revocation the container's commit is asynchronous too, and a late one from an old
     * generation is refused) does the same. An offset never moves backwards (a failed asynchronous commit is not
     * retried; the next one covers it).
     *
     * @param interval how often processed offsets are committed; zero: after every batch ({@code AckMode.BATCH})
     */
    public static void commitOffsetsWithoutWaiting(ContainerProperties container, Duration interval) {
        if (interval.isNegative()) {
            throw new IllegalArgumentException("offset commit interval is " + interval + ": set zero or more");
        }
        container.setSyncCommits(false);
        if (interval.isZero()) {
            container.setAckMode(ContainerProperties.AckMode.BATCH);
        } else {
            container.setAckMode(ContainerProperties.AckMode.TIME);
            container.setAckTime(interval.toMillis());
        }
    }

    /** For readiness: the registry has listener containers and every one of them runs. */
    public static boolean allRunning(KafkaListenerEndpointRegistry registry) {
        var containers = registry.getListenerContainers();
        return !containers.isEmpty() && containers.stream().allMatch(MessageListenerContainer::isRunning);
    }
}
