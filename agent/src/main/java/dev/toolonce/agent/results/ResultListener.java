package dev.toolonce.agent.results;

import dev.toolonce.agent.publish.TraceContext;
import dev.toolonce.jdbc.InboxStore;
import dev.toolonce.jdbc.PayloadHash;
import dev.toolonce.messaging.IsolatingBatchProcessor;
import dev.toolonce.schemas.signing.Keyring;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.TraceParent;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Consumes result events: per poll batch, one transaction records each message in the inbox and applies
 * new ones to their steps. Unreadable records, and records that fail on their own within their attempts, are
 * dead-lettered alone ({@link IsolatingBatchProcessor}) and recorded in {@code step_result_log} with the reason,
 * so that no step waits silently. Offsets are committed by the container after this returns.
 *
 * <p>Meters, registered with the {@link MeterRegistry} it is given (the application's, when the starter finds one;
 * docs/operations.md §3): {@value #RESULTS} counts every result by {@code outcome} — {@code applied} (a step
 * changed), {@code not_applied} (new, but no step changed: no such step, a call version that is not newer, a rejection
 * not addressed to the step's own intent), {@code duplicate}
 * (already in the inbox) — and {@value #BATCH} times each poll batch, its transaction included. Dead letters are
 * counted once, by the shared error path, as {@code toolonce.consumer.dead_lettered{consumer="results"}} (after the
 * send succeeded). {@link #stats()} is a view of these counters.
 */
public final class ResultListener {
    public static final String RESULTS = "toolonce.agent.results";
    public static final String BATCH = "toolonce.agent.results.batch";
    /** The id of the results listener container, for readiness checks. */
    public static final String LISTENER_ID = "results";

    private final String group;
    private final InboxStore inbox;
    private final StepResults steps;
    private final List<ResultHandler> handlers;
    private final ResultDecoder decoder;
    private final IsolatingBatchProcessor<ResultDecoder.Readable> processor;
    private final Counter applied;
    private final Counter notApplied;
    private final Counter duplicates;
    private final MeterRegistry meters;
    private final Timer batches;

    public ResultListener(String group, InboxStore inbox, StepResults steps, Keyring keyring,
                          IsolatingBatchProcessor.DeadLetterSink deadLetters, TransactionTemplate tx,
                          BooleanSupplier databaseAnswers, int maxAttempts, MeterRegistry meters) {
        this(group, inbox, steps, keyring, deadLetters, tx, databaseAnswers, maxAttempts, meters, List.of());
    }

    /**
     * @param handlers called in order for every new result, in the transaction of its inbox row (the task engine
     *                 first, then the application's {@link ResultHandler}s)
     */
    public ResultListener(String group, InboxStore inbox, StepResults steps, Keyring keyring,
                          IsolatingBatchProcessor.DeadLetterSink deadLetters, TransactionTemplate tx,
                          BooleanSupplier databaseAnswers, int maxAttempts, MeterRegistry meters,
                          List<ResultHandler> handlers) {
        this.decoder = new ResultDecoder(keyring);
        this.handlers = List.copyOf(handlers);
        this.group = group;
        this.inbox = inbox;
        this.steps = steps;
        this.applied = outcome(meters, "applied");
        this.notApplied = outcome(meters, "not_applied");
        this.duplicates = outcome(meters, "duplicate");
        this.meters = meters;
        this.batches = Timer.builder(BATCH).publishPercentileHistogram()
                .description("one poll batch of results, its transaction included").register(meters);
        this.processor = new IsolatingBatchProcessor<>(
                new IsolatingBatchProcessor.Settings(LISTENER_ID, maxAttempts, Duration.ofMillis(200)),
                decoder::decode,
                batch -> {
                    List<Boolean> outcomes = new ArrayList<>(batch.size());
                    tx.executeWithoutResult(s -> outcomes.addAll(handleAll(batch)));
                    outcomes.forEach(this::count);
                },
                deadLetters, databaseAnswers,
                (record, decoded, code, message) -> {
                    // A record that is not the executor's is dead-lettered and logged, never noted against a step.
                    if (!ResultDecoder.NOT_AUTHENTIC.contains(code)) {
                        tx.executeWithoutResult(s -> steps.deadLettered(record,
                                decoded == null ? null : decoded.result(), code, message));
                    }
                },
                meters);
    }


    @KafkaListener(id = LISTENER_ID,
            topics = "${toolonce.agent.results-topic:${toolonce.consumer.results-topic:toolonce.tool-results}}",
            groupId = "${toolonce.agent.consumer-group:${toolonce.consumer.consumer-group:toolonce-agent}}",
            containerFactory = "${toolonce.agent.container-factory:toolonceResultsContainerFactory}", batch = "true")
    public void onBatch(List<ConsumerRecord<byte[], byte[]>> records) {
        batches.record(() -> processor.process(records));
    }

    /**
     * Applies a poll batch in the caller's transaction: one inbox insert for every result, then the new results
     * applied to their steps together ({@link StepResults#applyAll}) and handed to each handler together, in order
     * ({@link ResultHandler#onResults}). When two new results belong to one task, each result is applied and handled
     * before the next, as {@link #handle} does, so that the engine never sees a later result of its task applied
     * before it has handled an earlier one.
     *
     * @return per result, in order: null for a duplicate message, else whether a step changed
     */
    private List<Boolean> handleAll(List<ResultDecoder.Readable> batch) {
        if (batch.size() < 2) {
            return batch.stream().map(this::handle).toList();
        }
        List<InboxStore.Seen> seen = inbox.recordAll(group, batch.stream().map(ResultListener::message).toList());
        List<ResultDecoder.Readable> fresh = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            if (seen.get(i) == InboxStore.Seen.NEW) {
                fresh.add(batch.get(i));
            }
        }
        List<ToolResult> results = fresh.stream().map(ResultDecoder.Readable::result).toList();
        if (!oneResultPerTask(results)) {
            return oneAfterAnother(seen, batch);
        }
        List<Boolean> applied = steps.applyAll(results);
        List<ResultHandler.Received> received = new ArrayList<>(fresh.size());
        for (int f = 0; f < fresh.size(); f++) {
            received.add(new ResultHandler.Received(results.get(f), applied.get(f), traceparent(fresh.get(f))));
        }
        handlers.forEach(handler -> handler.onResults(received));
        List<Boolean> outcomes = new ArrayList<>(batch.size());
        int f = 0;
        for (InboxStore.Seen s : seen) {
            outcomes.add(s == InboxStore.Seen.NEW ? applied.get(f++) : null);
        }
        return outcomes;
    }

    /** The new results of a batch whose inbox rows are written, each applied and handled before the next. */
    private List<Boolean> oneAfterAnother(List<InboxStore.Seen> seen, List<ResultDecoder.Readable> batch) {
        List<Boolean> outcomes = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            if (seen.get(i) != InboxStore.Seen.NEW) {
                outcomes.add(null);
                continue;
            }
            ResultDecoder.Readable r = batch.get(i);
            outcomes.add(TraceContext.within(traceparent(r), () -> {
                boolean changed = steps.apply(r.result());
                handlers.forEach(handler -> handler.onResult(r.result(), changed));
                return changed;
            }));
        }
        return outcomes;
    }

    private static String traceparent(ResultDecoder.Readable r) {
        Header h = r.record().headers().lastHeader(Contract.TRACEPARENT);
        return h == null ? null : TraceParent.valid(h.value());
    }

    private static boolean oneResultPerTask(List<ToolResult> results) {
        List<List<String>> tasks = results.stream().filter(r -> r.taskId() != null)
                .map(r -> List.of(r.tenantId(), r.taskId())).toList();
        return new HashSet<>(tasks).size() == tasks.size();
    }

    private static InboxStore.Message message(ResultDecoder.Readable r) {
        return new InboxStore.Message(r.messageId(), PayloadHash.of(r.record().value()), r.record().topic(),
                r.record().partition(), r.record().offset());
    }

    /**
     * Applies one result with its trace in the logging context (docs/contract.md §14): what the handlers log, and the
     * intents a task publishes next through the default {@code TraceContext}, carry the trace the result came with.
     *
     * @return null for a duplicate message, else whether a step changed
     */
    private Boolean handle(ResultDecoder.Readable r) {
        return TraceContext.within(traceparent(r), () -> {
            InboxStore.Seen seen = inbox.record(group, r.messageId(), PayloadHash.of(r.record().value()),
                    r.record().topic(), r.record().partition(), r.record().offset());
            if (seen != InboxStore.Seen.NEW) {
                return null;
            }
            boolean applied = steps.apply(r.result());
            handlers.forEach(handler -> handler.onResult(r.result(), applied));
            return applied;
        });
    }

    private void count(Boolean outcome) {
        (outcome == null ? duplicates : outcome ? applied : notApplied).increment();
    }

    private static Counter outcome(MeterRegistry meters, String outcome) {
        return Counter.builder(RESULTS).tag("outcome", outcome).description("result events consumed, by outcome")
                .register(meters);
    }

    /** Counters since start-up: a view of the {@value #RESULTS} meters and of the shared error path's dead letters. */
    public Map<String, Long> stats() {
        double deadLettered = meters.find("toolonce.consumer.dead_lettered").tag("consumer", LISTENER_ID).counters()
                .stream().mapToDouble(Counter::count).sum();
        return Map.of("applied", (long) applied.count(), "notApplied", (long) notApplied.count(),
                "duplicates", (long) duplicates.count(), "deadLettered", (long) deadLettered);
    }
}
