package dev.toolonce.messaging;

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
     * Offsets are still committed only after a batch's transaction committed (docs/protocol.md §5), but the listener
     * does not wait for the broker's answer before its next poll: a synchronous offset commit took 13 ms on average
     * on the local broker (its group coordinator lingers 5 ms to batch appends), and the listener polled nothing
     * meanwhile. A commit that is lost or fails (a crash, a rebalance: on revocation the container's commit is
     * asynchronous too, and a late one from an old generation is refused) redelivers records: the ones the inbox
     * recorded it answers as duplicates, and a record that was refused or dead-lettered is dead-lettered again. An
     * offset never moves backwards (a failed asynchronous commit is not retried; the next batch's commit covers it).
     */
    public static void commitOffsetsWithoutWaiting(ContainerProperties container) {
        container.setSyncCommits(false);
    }

    /** For readiness: the registry has listener containers and every one of them runs. */
    public static boolean allRunning(KafkaListenerEndpointRegistry registry) {
        var containers = registry.getListenerContainers();
        return !containers.isEmpty() && containers.stream().allMatch(MessageListenerContainer::isRunning);
    }
}
