package dev.toolonce.executor.intake;

import dev.toolonce.executor.execution.Dispatcher;
import dev.toolonce.executor.ledger.ToolCallStore;
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
 * record the rest in one transaction — its plan insert claiming as many of the calls it plans as workers are free
 * ({@link Dispatcher#reserve}) — then return so that the container may commit the offsets (once per offset-commit
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
                    // Counted, started and offered only once the transaction committed: a rolled-back batch is
                    // applied again, and its workers set aside are returned.
                    List<Intake.Taken> done = new ArrayList<>(batch.size());
                    try (Dispatcher.Start start = dispatcher.reserve(batch.size())) {
                        ToolCallStore.Starting starting = start.starting();
                        tx.executeWithoutResult(s -> done.addAll(intake.recordAll(batch, starting)));
                        done.forEach(stats::count);
                        start.run(done.stream().map(Intake.Taken::started).filter(Objects::nonNull).toList());
                    }
                    dispatcher.offer(done.stream().filter(t -> t.plannedId() != null && t.started() == null)
                            .map(Intake.Taken::plannedId).toList());
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
