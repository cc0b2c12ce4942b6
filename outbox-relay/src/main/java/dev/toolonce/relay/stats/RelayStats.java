package dev.toolonce.relay.stats;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The relay's meters, registered with Micrometer and scraped at {@code /actuator/prometheus}
 * (docs/operations.md §2), each tagged with the source it relays:
 * <ul>
 *   <li>{@value #COMMIT_TO_ACK} — timer of source transaction commit → Kafka acknowledgement of the
 *       row, with a percentile histogram and SLO buckets at 1, 2, 5, 10, 20, 50, 100, 250, 500 and
 *       1000 ms (snapshot rows are not timed: their commit is old news);</li>
 *   <li>{@value #PUBLISHED} — rows acknowledged by their topic, snapshot rows included;</li>
 *   <li>{@value #DEAD_LETTERED} — rows acknowledged by the dead-letter topic, by {@code code};</li>
 *   <li>{@value #SEND_FAILURES} — sends that failed for a reason a retry may cure (broker down,
 *       timeout): each hands its batch back to the engine, which delivers it again;</li>
 *   <li>{@value #WATCHDOG_FAILURES} — steps of the watchdog's round (a source's probe, the Kafka
 *       probe, a source's progress check) that threw something unexpected, by {@code step}; the
 *       round goes on without them. Anything above zero is a bug worth a look in the log.</li>
 * </ul>
 *
 * <p>{@code GET /relay/stats} is a view of these counters. Its latency percentiles are not: Micrometer
 * timers cannot be reset, and the bench resets the figures before each run, so the same commit→ack
 * values are also kept in a hand-made, resettable {@link LatencyHistogram} (about 3 % relative
 * error, exact max) that only {@code /relay/stats} reads. Prometheus sees the Micrometer timer only.
 *
 * <p>Thread-safe; recorded from Kafka producer callbacks.
 */
@Component
public class RelayStats {

    public static final String COMMIT_TO_ACK = "toolonce.relay.commit_to_ack";
    public static final String PUBLISHED = "toolonce.relay.published";
    public static final String DEAD_LETTERED = "toolonce.relay.dead_lettered";
    public static final String SEND_FAILURES = "toolonce.relay.send_failures";
    public static final String BATCHES_RESENT = "toolonce.relay.batches_resent";
    public static final String WATCHDOG_FAILURES = "toolonce.relay.watchdog.failures";
    /** {@value #WATCHDOG_FAILURES} step: a source's database and slot probe. */
    public static final String STEP_PROBE = "probe";
    /** {@value #WATCHDOG_FAILURES} step: the Kafka probe (tagged {@code source} = {@value #ALL_SOURCES}). */
    public static final String STEP_KAFKA = "kafka";
    /** {@value #WATCHDOG_FAILURES} step: a source's progress check (the stalled-engine restart). */
    public static final String STEP_PROGRESS = "progress";
    /** The {@code source} tag of a meter that concerns every source. */
    public static final String ALL_SOURCES = "*";

    private static final Duration[] SLO = {Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
            Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(50), Duration.ofMillis(100),
            Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofMillis(1000)};

    private final MeterRegistry registry;
    private final Map<String, SourceMeters> sources = new ConcurrentHashMap<>();
    private final LatencyHistogram window = new LatencyHistogram();

    public RelayStats(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * The meters of one source, registered on first use.
     *
     * @param source the source's name (the {@code source} tag)
     * @return the same instance for the same name; never null
     */
    public SourceMeters source(String source) {
        return sources.computeIfAbsent(source, SourceMeters::new);
    }

    /** Rows acknowledged by their topic since start-up, all sources. */
    public long publishedCount() {
        return sources.values().stream().mapToLong(m -> (long) m.published.count()).sum();
    }

    /** Rows acknowledged by the dead-letter topic since start-up, all sources and codes. */
    public long deadLetteredCount() {
        return sources.values().stream().mapToLong(SourceMeters::deadLetteredCount).sum();
    }

    /** Commit→ack figures since start-up or the last {@link #resetLatency()}, all sources. */
    public LatencyHistogram.Snapshot latency() {
        return window.snapshot();
    }

    /**
     * A step of the watchdog's round threw something unexpected; the round went on without it.
     *
     * @param source the source the step was for, or {@link #ALL_SOURCES}
     * @param step   {@link #STEP_PROBE}, {@link #STEP_KAFKA} or {@link #STEP_PROGRESS}
     */
    public void watchdogFailed(String source, String step) {
        watchdogFailures(source, step).increment();
    }

    /**
     * Registers at 0 every watchdog step the relay will run for these sources, so that an alert on
     * {@code increase()} sees the first failure too (a series that appears at 1 has no increase to show).
     */
    public void watching(Collection<String> sourceNames) {
        watchdogFailures(ALL_SOURCES, STEP_PROBE);
        watchdogFailures(ALL_SOURCES, STEP_KAFKA);
        for (String source : sourceNames) {
            watchdogFailures(source, STEP_PROBE);
            watchdogFailures(source, STEP_PROGRESS);
        }
    }

    private Counter watchdogFailures(String source, String step) {
        return Counter.builder(WATCHDOG_FAILURES).tag("source", source).tag("step", step)
                .description("watchdog steps that threw unexpectedly; the round went on without them")
                .register(registry);
    }

    /** Clears the resettable latency window of {@code /relay/stats}; the Micrometer meters keep counting. */
    public void resetLatency() {
        window.reset();
    }

    /** The meters of one source; methods are called from producer callbacks and the engine's thread. */
    public final class SourceMeters {
        private final String source;
        private final Timer commitToAck;
        private final Counter published;
        private final Counter sendFailures;
        private final Counter batchesResent;
        private final Map<String, Counter> deadLettered = new ConcurrentHashMap<>();

        private SourceMeters(String source) {
            this.source = source;
            this.commitToAck = Timer.builder(COMMIT_TO_ACK).tag("source", source)
                    .description("outbox row committed in its source database until Kafka acknowledged it")
                    .publishPercentileHistogram().serviceLevelObjectives(SLO).register(registry);
            this.published = Counter.builder(PUBLISHED).tag("source", source)
                    .description("outbox rows acknowledged by their topic").register(registry);
            this.sendFailures = Counter.builder(SEND_FAILURES).tag("source", source)
                    .description("sends that failed for a reason a retry may cure; their batch is sent again")
                    .register(registry);
            this.batchesResent = Counter.builder(BATCHES_RESENT).tag("source", source)
                    .description("batches sent again in place after a send failed for a reason a retry may cure")
                    .register(registry);
        }

        /**
         * A row was acknowledged by its topic.
         *
         * @param commitToAckMicros ack time minus the source transaction's commit time; a negative value
         *                          (the clock stepped back) counts as zero
         */
        public void published(long commitToAckMicros) {
            long micros = Math.max(0, commitToAckMicros);
            published.increment();
            commitToAck.record(micros, TimeUnit.MICROSECONDS);
            window.record(micros);
        }

        /** A row whose commit time does not measure the relay (a snapshot row) was acknowledged. */
        public void publishedUnmeasured() {
            published.increment();
        }

        /** A row was acknowledged by the dead-letter topic, sent there for {@code code}. */
        public void deadLettered(String code) {
            deadLettered.computeIfAbsent(code, c -> Counter.builder(DEAD_LETTERED).tag("source", source)
                    .tag("code", c).description("outbox rows acknowledged by the relay's dead-letter topic")
                    .register(registry)).increment();
        }

        /** A send failed for a reason a retry may cure; its batch is sent again, or handed back to the engine. */
        public void sendFailed() {
            sendFailures.increment();
        }

        /** A batch is sent again in place (the engine is not restarted). */
        public void resent() {
            batchesResent.increment();
        }

        private long deadLetteredCount() {
            return deadLettered.values().stream().mapToLong(c -> (long) c.count()).sum();
        }
    }
}
