package dev.toolonce.executor.intake;

import dev.toolonce.executor.execution.Dispatcher;
import dev.toolonce.executor.metrics.ExecutorStats;
import dev.toolonce.messaging.IsolatingBatchProcessor;
import dev.toolonce.messaging.IsolatingBatchProcessor.Decoded;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The listener thread's whole job (docs/failure-model.md, "Poison records"): per poll batch, dead-letter what cannot be read,
 * record the rest in one transaction, then return so that the container may commit the offsets (once per offset-commit
 * interval, {@code ConsumerContainers.commitOffsetsWithoutWaiting}; auto-commit off). A record that fails on its own is
 * isolated and dead-lettered after bounded attempts; a database outage throws and the batch is redelivered
 * ({@link IsolatingBatchProcessor}).
 */
public final class IntentListener {
    private final IsolatingBatchProcessor<ParsedIntent.Accepted> processor;
    private final Dispatcher dispatcher;
    private final ExecutorStats stats;

    public IntentListener(IntentParser parser, Intake intake, IsolatingBatchProcessor.DeadLetterSink deadLetters,
                          TransactionTemplate tx, Dispatcher dispatcher, ExecutorStats stats,
                          BooleanSupplier databaseAnswers, int maxAttempts, MeterRegistry meters) {
        this.dispatcher = dispatcher;
        this.stats = stats;
        this.processor = new IsolatingBatchProcessor<>(
                new IsolatingBatchProcessor.Settings("intake", maxAttempts, Duration.ofMillis(200)),
                record -> decode(parser, record),
                batch -> {
                    // Counted only once the transaction committed: a rolled-back batch is applied again.
                    List<Intake.Taken> done = new ArrayList<>(batch.size());
                    tx.executeWithoutResult(s -> done.addAll(intake.recordAll(batch)));
                    done.forEach(stats::count);
                    dispatcher.offer(done.stream().map(Intake.Taken::plannedId).filter(Objects::nonNull).toList());
                },
                deadLetters, databaseAnswers, (record, decoded, code, message) -> { }, meters);
    }

    private static Decoded<ParsedIntent.Accepted> decode(IntentParser parser, ConsumerRecord<byte[], byte[]> r) {
        ParsedIntent parsed = parser.parse(r);
        if (parsed instanceof ParsedIntent.Accepted a) {
            return new Decoded.Item<>(r, a);
        }
        ParsedIntent.Refused refused = (ParsedIntent.Refused) parsed;
        return new Decoded.Refused<>(r, refused.code(), refused.message());
    }

    @KafkaListener(id = "intake", topics = "${toolonce.executor.intents-topic:toolonce.tool-intents}",
            groupId = "${toolonce.executor.consumer-group:toolonce-executor}", batch = "true")
    public void onBatch(List<ConsumerRecord<byte[], byte[]>> records) {
        long started = System.nanoTime();
        processor.process(records);
        stats.intakeBatch(System.nanoTime() - started);
    }
}
