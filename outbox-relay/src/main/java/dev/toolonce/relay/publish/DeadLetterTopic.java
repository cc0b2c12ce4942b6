package dev.toolonce.relay.publish;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the relay's dead-letter topic when it is missing (one partition, the broker's
 * replication factor), so that a poison row never waits for an operator to create it.
 */
public final class DeadLetterTopic {

    private DeadLetterTopic() {
    }

    /**
     * @return empty when the topic exists now, else why it could not be created
     */
    public static Optional<String> ensure(Admin admin, String topic) throws InterruptedException {
        try {
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(1), Optional.empty())))
                    .all().get(15, TimeUnit.SECONDS);
            return Optional.empty();
        } catch (ExecutionException e) {
            return e.getCause() instanceof TopicExistsException ? Optional.empty()
                    : Optional.of(String.valueOf(e.getCause()));
        } catch (java.util.concurrent.TimeoutException e) {
            return Optional.of("no answer from Kafka within 15 s");
        }
    }
}
