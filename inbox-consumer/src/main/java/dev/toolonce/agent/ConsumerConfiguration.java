package dev.toolonce.agent;

import dev.toolonce.agent.results.ResultListener;
import dev.toolonce.agent.results.StepResults;
import dev.toolonce.jdbc.InboxStore;
import dev.toolonce.messaging.DeadLetters;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.FixedBackOff;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Wires the result consumer. */
@Configuration(proxyBeanMethods = false)
public class ConsumerConfiguration {

    /** A batch that fails (database down) is retried for ever: skipping would lose results. */
    @Bean
    CommonErrorHandler kafkaErrorHandler() {
        return new DefaultErrorHandler(new FixedBackOff(1000L, FixedBackOff.UNLIMITED_ATTEMPTS));
    }

    @Bean
    ResultListener resultListener(JdbcTemplate jdbc, KafkaTemplate<byte[], byte[]> kafka, TransactionTemplate tx,
                                  ConsumerProperties p) {
        return new ResultListener(p.consumerGroup(), new InboxStore(jdbc, p.schema()),
                new StepResults(jdbc, p.schema()), new DeadLetters(kafka, p.deadLetterTopic()), tx);
    }

    /** Readiness and counters. */
    @RestController
    static class ConsumerController {
        private final ResultListener listener;

        ConsumerController(ResultListener listener) {
            this.listener = listener;
        }

        @GetMapping("/ready")
        Map<String, String> ready() {
            return Map.of("status", "ready");
        }

        @GetMapping("/consumer/stats")
        Map<String, Long> stats() {
            return listener.stats();
        }
    }
}
