package dev.toolonce.bench.relay;

import dev.toolonce.bench.BenchTarget;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates the bench topic when missing (the broker does not auto-create topics); an existing one is kept. */
final class BenchTopic {
    private BenchTopic() {
    }

    static void ensure(BenchTarget target, String topic, int partitions) throws Exception {
        try (Admin admin = Admin.create(target.kafkaClient(new Properties()))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
            System.out.printf("    created topic %s (%d partitions)%n", topic, partitions);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }
}
