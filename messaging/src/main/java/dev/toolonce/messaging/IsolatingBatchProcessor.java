package dev.toolonce.messaging;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The designed error path of every ToolOnce consumer (docs/failure-model.md, "Poison records"): one bad record
 * costs itself, never its partition, and an infrastructure outage costs time, never a record.
 *
 * <p>Per poll batch:
 * <ol>
 *   <li>each record is decoded; a refusal, or any exception the decoder throws, dead-letters that record alone;</li>
 *   <li>the decoded items are applied together in one transaction;</li>
 *   <li>if that transaction fails while the database answers, each item is applied alone, up to
 *       {@code maxAttempts} times; one that still fails is dead-lettered with code {@value #PROCESSING_FAILED},
 *       logged at ERROR with its coordinates and counted;</li>
 *   <li>if the database does not answer, {@link InfrastructureUnavailableException} is thrown: nothing is
 *       dead-lettered and the container redelivers the batch after its back-off (inboxes absorb what was
 *       already recorded).</li>
 * </ol>
 * Offsets are committed by the container only after {@link #process} returned. Thread-safe if its
 * collaborators are.
 *
 * @param <T> what a record decodes to
 */
public final class IsolatingBatchProcessor<T> {
    /** DLQ code of a readable record that could not be applied within its attempts. */
    public static final String PROCESSING_FAILED = "PROCESSING_FAILED";
    /** DLQ code of a record whose decoder threw instead of refusing it. */
    public static final String DECODING_FAILED = "DECODING_FAILED";

    private static final Logger log = LoggerFactory.getLogger(IsolatingBatchProcessor.class);
    private static final Duration OUTAGE_LOG_EVERY = Duration.ofSeconds(10);

    private final String consumer;
    private final Decoder<T> decoder;
    private final Applier<T> applier;
    private final DeadLetterSink deadLetters;
    private final BooleanSupplier databaseAnswers;
    private final PoisonObserver<T> observer;
    private final int maxAttempts;
    private final Duration pauseBetweenAttempts;
    private final MeterRegistry meters;
    private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();
    private final AtomicLong lastOutageLog = new AtomicLong();

    /** Decodes one record; returns a refusal for bad input and may throw for input nobody foresaw. */
    @FunctionalInterface
    public interface Decoder<T> {
        Decoded<T> decode(ConsumerRecord<byte[], byte[]> record);
    }

    /** Applies decoded items in one transaction of its own (all or nothing). */
    @FunctionalInterface
    public interface Applier<T> {
        void applyInOneTransaction(List<T> items);
    }

    /** Sends a record to the dead-letter topic synchronously; throws when the DLQ did not acknowledge. */
    @FunctionalInterface
    public interface DeadLetterSink {
        void send(ConsumerRecord<byte[], byte[]> record, String code, String message);
    }

    /**
     * Told about every record about to be dead-lettered, with what was decoded of it ({@code null} when
     * nothing was), so that a consumer can leave a trace where its users look (e.g. the step it answered).
     * Must not throw for any input; if it does, the failure is logged and the record dead-lettered anyway.
     */
    @FunctionalInterface
    public interface PoisonObserver<T> {
        void deadLettered(ConsumerRecord<byte[], byte[]> record, T decodedOrNull, String code, String message);

        static <T> PoisonObserver<T> none() {
            return (r, d, c, m) -> { };
        }
    }

    /** What a record decoded to: an item to apply, or a refusal with a DLQ code. */
    public sealed interface Decoded<T> {
        record Item<T>(ConsumerRecord<byte[], byte[]> record, T item) implements Decoded<T> {
        }

        record Refused<T>(ConsumerRecord<byte[], byte[]> record, String code, String message) implements Decoded<T> {
        }
    }

    /** Thrown when the database does not answer: the batch must be redelivered, nothing dead-lettered. */
    public static final class InfrastructureUnavailableException extends RuntimeException {
        public InfrastructureUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** How one consumer is wired; see the class comment for what each part does. */
    public record Settings(String consumer, int maxAttempts, Duration pauseBetweenAttempts) {
        public Settings {
            Objects.requireNonNull(consumer, "consumer");
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1, is " + maxAttempts);
            }
        }
    }

    public IsolatingBatchProcessor(Settings settings, Decoder<T> decoder, Applier<T> applier,
                                   DeadLetterSink deadLetters, BooleanSupplier databaseAnswers,
                                   PoisonObserver<T> observer, MeterRegistry meters) {
        this.consumer = settings.consumer();
        this.maxAttempts = settings.maxAttempts();
        this.pauseBetweenAttempts = settings.pauseBetweenAttempts();
        this.decoder = decoder;
        this.applier = applier;
        this.deadLetters = deadLetters;
        this.databaseAnswers = databaseAnswers;
        this.observer = observer;
        this.meters = meters;
    }

    /**
     * Processes one poll batch as described in the class comment.
     *
     * @return the items that were applied (in this call; some may have been recorded by an earlier delivery)
     * @throws InfrastructureUnavailableException when the database does not answer
     * @throws RuntimeException from the DLQ sink when the dead-letter topic does not acknowledge
     */
    public List<T> process(List<ConsumerRecord<byte[], byte[]>> records) {
        List<Decoded.Item<T>> items = new ArrayList<>(records.size());
        for (ConsumerRecord<byte[], byte[]> r : records) {
            Decoded<T> d = decodeSafely(r);
            if (d instanceof Decoded.Item<T> item) {
                items.add(item);
            } else if (d instanceof Decoded.Refused<T> refused) {
                deadLetter(r, null, refused.code(), refused.message());
            }
        }
        if (items.isEmpty()) {
            return List.of();
        }
        List<T> all = items.stream().map(Decoded.Item::item).toList();
        try {
            applier.applyInOneTransaction(all);
            return all;
        } catch (RuntimeException | StackOverflowError e) {
            requireDatabase(e);
            log.warn("{}: a batch of {} records failed ({}); applying them one by one", consumer, items.size(),
                    describe(e));
            count("toolonce.consumer.batch_isolations", "consumer", consumer);
        }
        List<T> applied = new ArrayList<>(items.size());
        for (Decoded.Item<T> item : items) {
            if (applyAlone(item)) {
                applied.add(item.item());
            }
        }
        return applied;
    }

    private Decoded<T> decodeSafely(ConsumerRecord<byte[], byte[]> r) {
        try {
            Decoded<T> d = decoder.decode(r);
            return d != null ? d : new Decoded.Refused<>(r, DECODING_FAILED, "the decoder returned nothing");
        } catch (RuntimeException | StackOverflowError e) {
            log.error("{}: decoding {} threw; dead-lettering it", consumer, coordinates(r), e);
            return new Decoded.Refused<>(r, DECODING_FAILED, describe(e));
        }
    }

    private boolean applyAlone(Decoded.Item<T> item) {
        Throwable last = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            try {
                applier.applyInOneTransaction(List.of(item.item()));
                return true;
            } catch (RuntimeException | StackOverflowError e) {
                requireDatabase(e);
                last = e;
                log.warn("{}: {} failed on attempt {} of {}: {}", consumer, coordinates(item.record()), attempt,
                        maxAttempts, describe(e));
                if (attempt < maxAttempts) {
                    pause();
                }
            }
        }
        log.error("{}: {} could not be processed after {} attempts; dead-lettering it alone", consumer,
                coordinates(item.record()), maxAttempts, last);
        deadLetter(item.record(), item.item(), PROCESSING_FAILED, describe(last));
        return false;
    }

    /** A failure while the database does not answer is the infrastructure's, never the record's. */
    private void requireDatabase(Throwable cause) {
        boolean answers;
        try {
            answers = databaseAnswers.getAsBoolean();
        } catch (RuntimeException e) {
            answers = false;
        }
        if (!answers) {
            count("toolonce.consumer.infrastructure_failures", "consumer", consumer);
            long now = System.nanoTime();
            long last = lastOutageLog.get();
            if (now - last > OUTAGE_LOG_EVERY.toNanos() && lastOutageLog.compareAndSet(last, now)) {
                log.error("{}: the database does not answer ({}); the batch will be redelivered, nothing is skipped",
                        consumer, describe(cause));
            }
            throw new InfrastructureUnavailableException(consumer + ": database unavailable", cause);
        }
    }

    private void deadLetter(ConsumerRecord<byte[], byte[]> r, T decoded, String code, String message) {
        try {
            observer.deadLettered(r, decoded, code, message);
        } catch (RuntimeException e) {
            requireDatabase(e); // the trace must not be lost to an outage: redeliver instead
            log.error("{}: recording the dead-lettering of {} failed; dead-lettering it anyway", consumer,
                    coordinates(r), e);
        }
        deadLetters.send(r, code, message);
        log.error("{}: dead-lettered {}: {} {}", consumer, coordinates(r), code, message);
        count("toolonce.consumer.dead_lettered", "consumer", consumer, "code", code);
    }

    private void pause() {
        try {
            Thread.sleep(pauseBetweenAttempts.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted between attempts", e);
        }
    }

    private void count(String name, String... tags) {
        String key = name + String.join(",", tags);
        counters.computeIfAbsent(key, k -> Counter.builder(name).tags(tags).register(meters)).increment();
    }

    /** A record's place in Kafka as logs and dead-letter traces name it: {@code topic-partition@offset}. */
    public static String coordinates(ConsumerRecord<?, ?> r) {
        return r.topic() + "-" + r.partition() + "@" + r.offset();
    }

    private static String describe(Throwable e) {
        if (e == null) {
            return "unknown failure";
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = root == e ? e.toString() : e.getClass().getSimpleName() + ": " + root;
        return text.length() <= 1000 ? text : text.substring(0, 1000) + "…";
    }
}
