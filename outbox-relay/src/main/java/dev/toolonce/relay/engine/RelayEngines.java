package dev.toolonce.relay.engine;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import dev.toolonce.relay.config.RelayProperties;
import dev.toolonce.relay.config.RelayProperties.Source;
import dev.toolonce.relay.faults.RelayCrashPoints;
import dev.toolonce.relay.health.RelayProbes;
import dev.toolonce.relay.publish.DeadLetterTopic;
import dev.toolonce.relay.publish.OutboxPublisher;
import dev.toolonce.relay.publish.OutboxRowReader;
import dev.toolonce.relay.publish.TopicProbe;
import dev.toolonce.relay.stats.RelayStats;

/**
 * Starts one {@link SourceRunner} thread per configured source once the application context is
 * up, and closes every engine at shutdown (before the Kafka producer is closed, so the last
 * batches are acknowledged and their offsets flushed). One watchdog thread does every periodic
 * check, once a second: it probes each source (database and replication slot, on one connection per
 * source) and Kafka for the health indicators, the source statuses and the slot gauges
 * ({@link RelayProbes}), then restarts engines that stopped delivering. Each step of its round
 * catches everything, logs it and counts it ({@link RelayStats#WATCHDOG_FAILURES}), so the thread
 * only ends when the relay stops.
 */
@Component
public class RelayEngines implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RelayEngines.class);

    private final RelayProperties props;
    private final Producer<byte[], byte[]> producer;
    private final Admin admin;
    private final TopicProbe probe;
    private final RelayStats stats;
    private final Clock clock;
    private final List<SourceRunner> runners = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final RelayProbes probes;
    private final RelayCrashPoints crashPoints;
    private volatile Thread watchdog;
    private volatile boolean started;

    public RelayEngines(RelayProperties props, Producer<byte[], byte[]> relayProducer, Admin relayAdmin,
                        TopicProbe probe, RelayStats stats, Clock relayClock, RelayProbes probes,
                        RelayCrashPoints crashPoints) {
        this.props = props;
        this.producer = relayProducer;
        this.admin = relayAdmin;
        this.probe = probe;
        this.stats = stats;
        this.clock = relayClock;
        this.probes = probes;
        this.crashPoints = crashPoints;
    }

    @Override
    public synchronized void start() {
        started = true;
        stats.watching(props.sources().stream().map(Source::name).toList());
        for (Source source : props.sources()) {
            OutboxPublisher publisher = new OutboxPublisher(source.name(),
                    new OutboxRowReader(source.schema(), source.tableName()), producer, probe,
                    stats.source(source.name()), clock,
                    props.deadLetterTopic(), props.maxRecordBytes().toBytes(), crashPoints);
            SourceRunner runner = new SourceRunner(props, source, publisher);
            Thread thread = new Thread(runner, "relay-" + source.name());
            runners.add(runner);
            threads.add(thread);
            thread.start();
        }
        Thread dlq = new Thread(this::ensureDeadLetterTopic, "relay-dlq-topic");
        dlq.setDaemon(true);
        dlq.start();
        Thread w = new Thread(this::watch, "relay-watchdog");
        w.setDaemon(true);
        watchdog = w;
        w.start();
    }

    @Override
    public synchronized void stop() {
        started = false; // first: the watchdog must not restart engines that are being closed
        runners.forEach(SourceRunner::stop);
        endWatchdog();
        for (Thread thread : threads) {
            try {
                thread.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        probes.close();
        log.info("All relay engines stopped");
    }

    /** Wakes the watchdog and waits for its round to end, so that no probe uses a connection closed under it. */
    private void endWatchdog() {
        Thread w = watchdog;
        if (w == null) {
            return;
        }
        w.interrupt();
        try {
            w.join(15_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return started;
    }

    /**
     * For liveness: every source's supervisor thread and the watchdog are alive. They catch every
     * failure, so one that ended anyway is only cured by a restart; true while not started.
     */
    public boolean supervisorsAlive() {
        if (!started) {
            return true;
        }
        Thread w = watchdog;
        return w != null && w.isAlive() && threads.stream().allMatch(Thread::isAlive);
    }

    /** Statuses of all sources, in configuration order, each with what its latest probe found. */
    public List<SourceStatus> statuses() {
        return runners.stream().map(r -> r.status(probes.reading(r.name()))).toList();
    }

    /** Every second: probe the sources and Kafka, check each engine's progress; survives any Throwable. */
    private void watch() {
        while (started) {
            try {
                probes.probeAll(); // catches, logs and counts per probe; this is for what it cannot
            } catch (Throwable e) {
                log.error("Probing failed unexpectedly", e);
                stats.watchdogFailed(RelayStats.ALL_SOURCES, RelayStats.STEP_PROBE);
            }
            for (SourceRunner runner : List.copyOf(runners)) {
                try {
                    runner.checkProgress();
                } catch (Throwable e) {
                    log.error("Source '{}': progress check failed unexpectedly", runner.name(), e);
                    stats.watchdogFailed(runner.name(), RelayStats.STEP_PROGRESS);
                }
            }
            if (!sleep(1_000)) {
                return;
            }
        }
    }

    private void ensureDeadLetterTopic() {
        while (started) {
            try {
                Optional<String> problem = DeadLetterTopic.ensure(admin, props.deadLetterTopic());
                if (problem.isEmpty()) {
                    return;
                }
                log.warn("Dead-letter topic {} is not available yet ({}); retrying in 5 s", props.deadLetterTopic(),
                        problem.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Throwable e) {
                log.error("Creating dead-letter topic {} failed; retrying in 5 s", props.deadLetterTopic(), e);
            }
            if (!sleep(5_000)) {
                return;
            }
        }
    }

    private static boolean sleep(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
