package dev.toolonce.messaging;

import org.springframework.kafka.KafkaException;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.CommonErrorHandler;
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

    /** For readiness: the registry has listener containers and every one of them runs. */
    public static boolean allRunning(KafkaListenerEndpointRegistry registry) {
        var containers = registry.getListenerContainers();
        return !containers.isEmpty() && containers.stream().allMatch(MessageListenerContainer::isRunning);
    }
}
