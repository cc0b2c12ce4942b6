package dev.toolonce.executor.intake;

import dev.toolonce.executor.execution.Dispatcher;
import dev.toolonce.messaging.DeadLetters;
import dev.toolonce.executor.web.ExecutorStats;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.NonTransientDataAccessException;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The listener thread's whole job (DESIGN.md point 4): per poll batch, dead-letter what cannot be read,
 * record the rest in one transaction, then return so that the container commits the offsets
 * ({@code AckMode.BATCH}, auto-commit off). A database outage throws and the batch is redelivered.
 */
public final class IntentListener {
    private static final Logger log = LoggerFactory.getLogger(IntentListener.class);

    private final IntentParser parser;
    private final Intake intake;
    private final DeadLetters deadLetters;
    private final TransactionTemplate tx;
    private final Dispatcher dispatcher;
    private final ExecutorStats stats;

    public IntentListener(IntentParser parser, Intake intake, DeadLetters deadLetters, TransactionTemplate tx,
                          Dispatcher dispatcher, ExecutorStats stats) {
        this.parser = parser;
        this.intake = intake;
        this.deadLetters = deadLetters;
        this.tx = tx;
        this.dispatcher = dispatcher;
        this.stats = stats;
    }

    @KafkaListener(id = "intake", topics = "${toolonce.executor.intents-topic:toolonce.tool-intents}",
            groupId = "${toolonce.executor.consumer-group:toolonce-executor}", batch = "true")
    public void onBatch(List<ConsumerRecord<byte[], byte[]>> records) {
        List<ParsedIntent.Accepted> accepted = new ArrayList<>(records.size());
        for (ConsumerRecord<byte[], byte[]> r : records) {
            ParsedIntent parsed = parser.parse(r);
            if (parsed instanceof ParsedIntent.Accepted a) {
                accepted.add(a);
            } else if (parsed instanceof ParsedIntent.Refused refused) {
                deadLetter(refused.record(), refused.code(), refused.message());
            }
        }
        try {
            tx.executeWithoutResult(s -> accepted.forEach(a -> stats.count(intake.record(a))));
        } catch (NonTransientDataAccessException e) {
            log.warn("batch of {} intents failed ({}); retrying one by one", accepted.size(), e.getMessage());
            accepted.forEach(this::recordAlone);
        }
        dispatcher.wake();
    }

    /** One record in its own transaction; one that still cannot be recorded is dead-lettered, not dropped. */
    private void recordAlone(ParsedIntent.Accepted a) {
        try {
            tx.executeWithoutResult(s -> stats.count(intake.record(a)));
        } catch (NonTransientDataAccessException e) {
            deadLetter(a.record(), "INTAKE_FAILED", e.getMostSpecificCause().getMessage());
        }
    }

    private void deadLetter(ConsumerRecord<byte[], byte[]> record, String code, String message) {
        deadLetters.send(record, code, message);
        stats.deadLettered();
    }
}
