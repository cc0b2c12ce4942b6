package dev.toolonce.relay.engine;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.toolonce.relay.config.RelayProperties;
import dev.toolonce.relay.config.RelayProperties.Source;
import dev.toolonce.relay.health.ProbeReading;
import dev.toolonce.relay.publish.OutboxPublisher;
import dev.toolonce.relay.slot.SourcePreparation;
import dev.toolonce.relay.snapshot.OutboxSnapshot;
import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;

/**
 * Supervises one source on its own thread: prepares the database (migrations, slot), waits for
 * the publication, stands by while another relay streams from the slot, snapshots the outbox
 * table when the slot cannot deliver its earlier rows, then runs the Debezium engine. When
 * anything fails — a lost database connection ends the engine, a Kafka send that cannot complete
 * ends the batch — it logs why and starts over after a backoff that doubles up to
 * {@code restart-backoff-max}; any {@link Throwable} is caught per attempt, so the thread only
 * ends when the relay stops.
 *
 * <p>A watchdog ({@link #checkProgress}) restarts an engine that claims to poll but has
 * delivered nothing, not even a heartbeat, for {@link #stallAfter()}.
 */
public final class SourceRunner implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(SourceRunner.class);
    /** An engine that ran this long before failing restarts after the shortest backoff again. */
    private static final Duration HEALTHY_RUN = Duration.ofMinutes(1);
    private static final Duration MIN_STALL = Duration.ofSeconds(30);

    private final RelayProperties relay;
    private final Source source;
    private final OutboxPublisher publisher;
    private final SourcePreparation preparation;
    private final CountDownLatch stopSignal = new CountDownLatch(1);

    private volatile SourceState state = SourceState.PREPARING;
    private volatile boolean polling;
    private volatile boolean batchInProgress;
    private volatile long lastDeliveryNanos = System.nanoTime();
    private volatile String lastError;
    private volatile DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;

    public SourceRunner(RelayProperties relay, Source source, OutboxPublisher publisher) {
        this.relay = relay;
        this.source = source;
        this.publisher = publisher;
        this.preparation = new SourcePreparation(source);
    }

    @Override
    public void run() {
        RestartBackoff backoff = new RestartBackoff(relay.restartBackoffMin(), relay.restartBackoffMax(), HEALTHY_RUN);
        String lastFailure = null;
        while (!stopping()) {
            long started = System.nanoTime();
            try {
                runOnce();
            } catch (InterruptedException e) {
                if (stopping()) {
                    break;
                }
                log.warn("Source '{}': interrupted while not stopping; carrying on", source.name());
            } catch (EngineStopped e) {
                log.warn("Source '{}': engine ended; starting it again", source.name());
            } catch (Throwable e) { // every failure, Errors included: this thread must outlive it
                lastError = e.toString();
                if (lastError.equals(lastFailure)) { // an outage repeats itself every attempt: one trace is enough
                    log.error("Source '{}' failed again in state {}: {}", source.name(), state, lastError);
                } else {
                    log.error("Source '{}' failed in state {}: {}", source.name(), state, lastError, e);
                }
                lastFailure = lastError;
            }
            if (stopping()) {
                break;
            }
            Duration wait = backoff.after(Duration.ofNanos(System.nanoTime() - started));
            state = SourceState.BACKING_OFF;
            log.info("Source '{}': next attempt in {} ms", source.name(), wait.toMillis());
            if (awaitStop(wait)) {
                break;
            }
        }
        state = SourceState.STOPPED;
    }

    private void runOnce() throws Exception {
        state = SourceState.PREPARING;
        polling = false;
        preparation.migrateAndEnsureSlot();
        state = SourceState.WAITING_FOR_PUBLICATION;
        if (!preparation.awaitPublication(this::stopping)) {
            return;
        }
        if (!preparation.awaitSlotFree(this::stopping, () -> state = SourceState.STANDBY)) {
            return;
        }
        preparation.repairSlotOlderThanPublication();
        if (preparation.snapshotNeeded() && !snapshot()) {
            return;
        }
        state = SourceState.STARTING;
        runEngine();
    }

    /** @return false when the relay began stopping before the snapshot completed */
    private boolean snapshot() throws Exception {
        state = SourceState.SNAPSHOTTING;
        log.info("Source '{}': no position stored for slot '{}' and no completed snapshot: publishing the rows "
                + "already in {} before streaming (rows the slot also delivers are sent twice, same ce_id)",
                source.name(), source.slot(), source.table());
        long started = System.nanoTime();
        OptionalLong rows = new OutboxSnapshot(source, publisher, relay.maxBatchSize()).publishAll(this::stopping);
        if (rows.isEmpty()) {
            return false;
        }
        preparation.markSnapshotDone(rows.getAsLong());
        log.info("Source '{}': snapshot of {} complete: {} rows published in {} ms", source.name(), source.table(),
                rows.getAsLong(), (System.nanoTime() - started) / 1_000_000);
        return true;
    }

    private void runEngine() throws Exception {
        DebeziumEngine<RecordChangeEvent<SourceRecord>> e = DebeziumEngine
                .create(ChangeEventFormat.of(Connect.class))
                .using(EngineSettings.of(relay, source))
                .using(new Callbacks())
                .using(this::completed)
                .notifying(this::handleBatch)
                .build();
        engine = e;
        try {
            if (!stopping()) {
                log.info("Source '{}': starting engine on slot '{}'", source.name(), source.slot());
                e.run();
            }
        } finally {
            polling = false;
            engine = null;
            closeQuietly(e);
        }
        if (!stopping()) {
            throw new EngineStopped();
        }
    }

    /** Every delivery, heartbeats included, shows the engine is alive; then the publisher sends the batch. */
    private void handleBatch(List<RecordChangeEvent<SourceRecord>> records,
                             DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
            throws InterruptedException {
        lastDeliveryNanos = System.nanoTime();
        batchInProgress = true;
        try {
            publisher.handleBatch(records, committer);
        } finally {
            batchInProgress = false;
            lastDeliveryNanos = System.nanoTime();
        }
    }

    /** The engine returned without being asked to; its completion callback has logged why. */
    private static final class EngineStopped extends Exception {
        EngineStopped() {
            super(null, null, false, false);
        }
    }

    private void completed(boolean success, String message, Throwable error) {
        polling = false;
        if (!success || error != null) {
            lastError = message + (error == null ? "" : ": " + error);
            log.error("Source '{}': engine stopped: {}", source.name(), message, error);
        } else if (!stopping()) {
            lastError = message;
            log.warn("Source '{}': engine stopped: {}", source.name(), message);
        }
    }

    /**
     * Watchdog, called periodically from another thread: closes an engine that polls but has
     * delivered nothing (not even a heartbeat) for {@link #stallAfter()} while no batch was in
     * progress, so the supervisor starts it again. Never throws.
     */
    public void checkProgress() {
        DebeziumEngine<RecordChangeEvent<SourceRecord>> e = engine;
        if (e == null || !stalled()) {
            return;
        }
        lastError = "engine delivered nothing, not even a heartbeat, for " + stallAfter().toSeconds() + " s";
        log.error("Source '{}': {}; restarting it", source.name(), lastError);
        lastDeliveryNanos = System.nanoTime();
        closeQuietly(e);
    }

    private boolean stalled() {
        return polling && state == SourceState.RUNNING && !batchInProgress
                && System.nanoTime() - lastDeliveryNanos > stallAfter().toNanos();
    }

    /** Six heartbeats, at least 30 s. */
    Duration stallAfter() {
        Duration six = relay.heartbeatInterval().multipliedBy(6);
        return six.compareTo(MIN_STALL) > 0 ? six : MIN_STALL;
    }

    /** Closes the engine (it flushes its offsets) and ends the supervisor; idempotent. */
    public void stop() {
        stopSignal.countDown();
        DebeziumEngine<RecordChangeEvent<SourceRecord>> e = engine;
        if (e != null) {
            closeQuietly(e);
        }
    }

    /** Closing flushes the offsets; an engine that already stopped by itself refuses a second close. */
    private void closeQuietly(DebeziumEngine<?> e) {
        try {
            e.close();
        } catch (IllegalStateException alreadyShutDown) {
            log.debug("Source '{}': engine already shut down", source.name());
        } catch (Exception ex) {
            log.warn("Source '{}': closing the engine failed", source.name(), ex);
        }
    }

    /**
     * @param probe what the latest probe of this source found (database and slot, from one round); its slot
     *              readiness is reported as it is now, not as it was when this supervisor last prepared the slot
     * @return this source as {@code /ready} reports it
     */
    public SourceStatus status(ProbeReading probe) {
        boolean running = polling && state == SourceState.RUNNING && !stalled();
        return new SourceStatus(source.name(), source.slot(), probe.slotReady(), running, probe.databaseReachable(),
                state, lastError);
    }

    public String name() {
        return source.name();
    }

    public Source source() {
        return source;
    }

    private boolean stopping() {
        return stopSignal.getCount() == 0;
    }

    private boolean awaitStop(Duration timeout) {
        try {
            return stopSignal.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /** Tracks whether the engine polls; Debezium calls these from its own threads. */
    private final class Callbacks implements DebeziumEngine.ConnectorCallback {
        @Override
        public void pollingStarted() {
            lastDeliveryNanos = System.nanoTime();
            polling = true;
            state = SourceState.RUNNING;
            lastError = null;
            log.info("Source '{}': engine running on slot '{}'", source.name(), source.slot());
        }

        @Override
        public void pollingStopped() {
            polling = false;
        }

        @Override
        public void taskStopped() {
            polling = false;
        }
    }
}
