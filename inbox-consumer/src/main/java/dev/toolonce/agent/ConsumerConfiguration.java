package dev.toolonce.agent;

import dev.toolonce.agent.results.ResultListener;
import dev.toolonce.agent.results.StepResults;
import dev.toolonce.jdbc.DatabaseProbe;
import dev.toolonce.jdbc.InboxStore;
import dev.toolonce.messaging.ConsumerContainers;
import dev.toolonce.messaging.ConsumerDeadLetterSink;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Wires the result consumer. */
@Configuration(proxyBeanMethods = false)
public class ConsumerConfiguration {

    @Bean
    CommonErrorHandler kafkaErrorHandler() {
        return ConsumerContainers.redeliverWhileInfrastructureIsDown();
    }

    @Bean
    DatabaseProbe databaseProbe(JdbcTemplate jdbc) {
        return new DatabaseProbe(jdbc);
    }

    @Bean
    ResultListener resultListener(JdbcTemplate jdbc, KafkaTemplate<byte[], byte[]> kafka, TransactionTemplate tx,
                                  ConsumerProperties p, DatabaseProbe probe, MeterRegistry meters) {
        return new ResultListener(p.consumerGroup(), new InboxStore(jdbc, p.schema()),
                new StepResults(jdbc, p.schema()), new ConsumerDeadLetterSink(kafka, p.deadLetterTopic()), tx, probe,
                p.poisonAttempts(), meters);
    }

    /** Readiness and counters. */
    @RestController
    static class ConsumerController {
        private final ResultListener listener;
        private final DatabaseProbe database;
        private final KafkaListenerEndpointRegistry listeners;

        ConsumerController(ResultListener listener, DatabaseProbe database, KafkaListenerEndpointRegistry listeners) {
            this.listener = listener;
            this.database = database;
            this.listeners = listeners;
        }

        /** 200 while the database answers and every listener container runs; 503 naming what is wrong. */
        @GetMapping("/ready")
        ResponseEntity<Map<String, Object>> ready() {
            Map<String, Object> checks = new LinkedHashMap<>();
            checks.put("database", database.getAsBoolean());
            checks.put("listeners", ConsumerContainers.allRunning(listeners));
            boolean ready = checks.values().stream().allMatch(Boolean.TRUE::equals);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("status", ready ? "ready" : "not ready");
            body.put("checks", checks);
            return ResponseEntity.status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).body(body);
        }

        @GetMapping("/consumer/stats")
        Map<String, Long> stats() {
            return listener.stats();
        }
    }
}
