package dev.toolonce.relay.engine;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.toolonce.relay.config.RelayProperties;
import dev.toolonce.relay.config.RelayProperties.Source;
import dev.toolonce.relay.publish.OutboxPublisher;
import dev.toolonce.relay.slot.SourcePreparation;
import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;

/**
 * Supervises one source on its own thread: prepares the database (migrations, slot), waits for
 * the publication, then runs the Debezium engine; when the engine or the preparation fails it
 * logs why and starts over after a backoff that doubles up to {@code restart-backoff-max}.
 */
public final class SourceRunner implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(SourceRunner.class);
    /** An engine that ran this long before failing restarts after the shortest backoff again. */
    private static final Duration HEALTHY_RUN = Duration.ofMinutes(1);

    private final RelayProperties relay;
    private final Source source;
    private final OutboxPublisher publisher;
    private final SourcePreparation preparation;
    private final CountDownLatch stopSignal = new CountDownLatch(1);

    private volatile SourceState state = SourceState.PREPARING;
    private volatile boolean slotReady;
    private volatile boolean polling;
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
        Duration backoff = relay.restartBackoffMin();
        while (!stopping()) {
            long started = System.nanoTime();
            try {
                runOnce();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (EngineStopped e) {
                log.warn("Source '{}': restarting its engine in {} ms", source.name(), backoff.toMillis());
            } catch (Exception e) {
                lastError = e.toString();
                log.error("Source '{}' failed; retrying in {} ms", source.name(), backoff.toMillis(), e);
            }
            if (stopping()) {
                break;
            }
            if (Duration.ofNanos(System.nanoTime() - started).compareTo(HEALTHY_RUN) > 0) {
                backoff = relay.restartBackoffMin();
            }
            state = SourceState.BACKING_OFF;
            if (awaitStop(backoff)) {
                break;
            }
            backoff = min(backoff.multipliedBy(2), relay.restartBackoffMax());
        }
        state = SourceState.STOPPED;
    }

    private void runOnce() throws Exception {
        state = SourceState.PREPARING;
        preparation.migrateAndEnsureSlot();
        slotReady = true;
        state = SourceState.WAITING_FOR_PUBLICATION;
        if (!preparation.awaitPublication(this::stopping)) {
            return;
        }
        boolean snapshot = preparation.repairSlotOlderThanPublication();
        state = SourceState.STARTING;
        runEngine(snapshot);
    }

    private void runEngine(boolean snapshot) throws Exception {
        DebeziumEngine<RecordChangeEvent<SourceRecord>> e = DebeziumEngine
                .create(ChangeEventFormat.of(Connect.class))
                .using(EngineSettings.of(relay, source, snapshot))
                .using(new Callbacks())
                .using(this::completed)
                .notifying(publisher)
                .build();
        engine = e;
        try {
            if (!stopping()) {
                log.info("Source '{}': starting engine on slot '{}' (snapshot.mode={})", source.name(), source.slot(),
                        snapshot ? "initial" : "no_data");
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

    public SourceStatus status() {
        boolean running = polling && state == SourceState.RUNNING;
        return new SourceStatus(source.name(), source.slot(), slotReady, running, state, lastError);
    }

    public String name() {
        return source.name();
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

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** Tracks whether the engine polls; Debezium calls these from its own threads. */
    private final class Callbacks implements DebeziumEngine.ConnectorCallback {
        @Override
        public void pollingStarted() {
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
