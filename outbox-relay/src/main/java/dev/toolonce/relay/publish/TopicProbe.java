package dev.toolonce.relay.publish;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Asks the cluster whether a topic exists, to tell "the topic is missing" (dead-letter the
 * record) from "the cluster is unreachable" (retry the batch) after a metadata timeout.
 */
public class TopicProbe {

    private final Admin admin;

    public TopicProbe(Admin admin) {
        this.admin = admin;
    }

    /**
     * @return true when the cluster answered that {@code topic} does not exist, false when it exists
     * @throws RetryBatchException when the cluster did not answer
     */
    public boolean isMissing(String topic) throws InterruptedException {
        try {
            admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS);
            return false;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return true;
            }
            throw new RetryBatchException("cannot tell whether topic " + topic + " exists", e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new RetryBatchException("cannot tell whether topic " + topic + " exists", e);
        }
    }
}
