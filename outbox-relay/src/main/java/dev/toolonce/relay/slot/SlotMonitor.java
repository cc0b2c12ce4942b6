package dev.toolonce.relay.slot;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import dev.toolonce.relay.config.RelayProperties;
import dev.toolonce.relay.config.RelayProperties.Source;
import dev.toolonce.relay.config.SourceConnections;
import dev.toolonce.relay.slot.SlotRepository.SlotState;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Reads every source's replication slot from {@code pg_replication_slots} on a thread of its own —
 * never from the event path — every {@link #PERIOD} while all slots are healthy and every
 * {@link #UNHEALTHY_PERIOD} while one is not (so that readiness follows a recovery within about a
 * second), and publishes what it read as gauges tagged {@code source} and {@code slot}:
 * <ul>
 *   <li>{@value #RETAINED_WAL} (bytes) — WAL the server keeps for the slot, from its {@code restart_lsn}:
 *       what a stopped relay costs the database's disk;</li>
 *   <li>{@value #CONFIRMED_LAG} (bytes) — WAL written since the position the relay last confirmed
 *       ({@code confirmed_flush_lsn}); it grows between offset flushes and while the relay is behind;</li>
 *   <li>{@value #ACTIVE} — 1 while a process streams from the slot;</li>
 *   <li>{@value #PRESENT} — 1 while the slot exists.</li>
 * </ul>
 * A byte gauge is NaN while its value is unknown (before the first check, a missing or invalidated
 * slot). When a check fails (the database does not answer) the gauges keep their last values and the
 * reading carries the error. A round catches everything, so the thread only ends when the relay stops.
 */
@Component
public class SlotMonitor implements SmartLifecycle {

    public static final String RETAINED_WAL = "toolonce.relay.slot.retained_wal";
    public static final String CONFIRMED_LAG = "toolonce.relay.slot.confirmed_lag";
    public static final String ACTIVE = "toolonce.relay.slot.active";
    public static final String PRESENT = "toolonce.relay.slot.present";
    /** Between two checks while every slot is healthy. */
    public static final Duration PERIOD = Duration.ofSeconds(10);
    /** Between two checks while a slot is not healthy. */
    static final Duration UNHEALTHY_PERIOD = Duration.ofSeconds(1);
    private static final int TIMEOUT_SECONDS = 3;
    private static final Logger log = LoggerFactory.getLogger(SlotMonitor.class);

    private final List<Source> sources;
    private final Clock clock;
    /** One entry per source, fixed at construction; the gauges read these. */
    private final Map<String, AtomicReference<SlotReading>> readings = new LinkedHashMap<>();
    /** Kept connections, used by the monitor thread only. */
    private final Map<String, Connection> connections = new HashMap<>();
    private volatile CountDownLatch stopSignal = new CountDownLatch(0);
    private volatile Thread thread;

    public SlotMonitor(RelayProperties props, MeterRegistry registry, Clock relayClock) {
        this.sources = props.sources();
        this.clock = relayClock;
        for (Source s : sources) {
            AtomicReference<SlotReading> reading = new AtomicReference<>(SlotReading.unknown(s.name(), s.slot()));
            readings.put(s.name(), reading);
            gauge(registry, RETAINED_WAL, s, reading, r -> bytes(r.retainedWalBytes()), "bytes",
                    "WAL the server keeps for the relay's replication slot (current position - restart_lsn)");
            gauge(registry, CONFIRMED_LAG, s, reading, r -> bytes(r.confirmedLagBytes()), "bytes",
                    "WAL written since the position the relay last confirmed (current position - confirmed_flush_lsn)");
            gauge(registry, ACTIVE, s, reading, r -> r.checkedAt() == null ? Double.NaN : r.active() ? 1 : 0, null,
                    "1 while a process streams from the replication slot");
            gauge(registry, PRESENT, s, reading, r -> r.checkedAt() == null ? Double.NaN : r.present() ? 1 : 0, null,
                    "1 while the replication slot exists");
        }
    }

    /** The latest reading of every source's slot, in configuration order. */
    public List<SlotReading> readings() {
        return readings.values().stream().map(AtomicReference::get).toList();
    }

    /**
     * Checks every slot once; each check catches its own failures.
     *
     * @return whether every slot is healthy
     */
    boolean checkAll() {
        boolean allHealthy = true;
        for (Source s : sources) {
            AtomicReference<SlotReading> ref = readings.get(s.name());
            SlotReading before = ref.get();
            SlotReading now = check(s, before);
            ref.set(now);
            logChange(before, now);
            allHealthy &= now.healthy();
        }
        return allHealthy;
    }

    /** Reads the slot; a kept connection that fails (the database restarted meanwhile) gets one fresh retry. */
    private SlotReading check(Source s, SlotReading before) {
        boolean kept = connections.containsKey(s.name());
        try {
            return read(s);
        } catch (SQLException | RuntimeException first) {
            dropConnection(s);
            if (kept) {
                try {
                    return read(s);
                } catch (SQLException | RuntimeException again) {
                    dropConnection(s);
                    return before.failed(describe(again));
                }
            }
            return before.failed(describe(first));
        }
    }

    private SlotReading read(Source s) throws SQLException {
        Connection c = connections.get(s.name());
        if (c == null || c.isClosed()) {
            c = SourceConnections.open(s, TIMEOUT_SECONDS);
            connections.put(s.name(), c);
        }
        Optional<SlotState> state = SlotRepository.slotState(c, s.slot());
        return state.map(st -> new SlotReading(s.name(), s.slot(), true, st.active(), st.walStatus(),
                        st.retainedWalBytes(), st.confirmedLagBytes(), clock.instant(), null))
                .orElseGet(() -> new SlotReading(s.name(), s.slot(), false, false, null, null, null,
                        clock.instant(), null));
    }

    private void dropConnection(Source s) {
        Connection broken = connections.remove(s.name());
        if (broken != null) {
            closeQuietly(broken);
        }
    }

    private static String describe(Exception e) {
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private static void logChange(SlotReading before, SlotReading now) {
        if (now.healthy() && !before.healthy()) {
            log.info("Source '{}': replication slot '{}' is streamed from (retained WAL {} bytes)", now.source(),
                    now.slot(), now.retainedWalBytes());
        } else if (!now.healthy() && before.healthy()) {
            log.warn("Source '{}': {}", now.source(), now.problem());
        }
    }

    private void loop() {
        CountDownLatch stop = stopSignal;
        try {
            while (stop.getCount() > 0) {
                boolean healthy = false;
                try {
                    healthy = checkAll();
                } catch (Throwable e) { // nothing may end this thread but a stop
                    log.error("Replication slot check failed unexpectedly", e);
                }
                if (stop.await((healthy ? PERIOD : UNHEALTHY_PERIOD).toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            connections.values().forEach(SlotMonitor::closeQuietly);
            connections.clear();
        }
    }

    @Override
    public synchronized void start() {
        stopSignal = new CountDownLatch(1);
        Thread t = new Thread(this::loop, "relay-slot-monitor");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    @Override
    public synchronized void stop() {
        stopSignal.countDown();
        Thread t = thread;
        if (t != null) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS + 2L));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        thread = null;
    }

    @Override
    public boolean isRunning() {
        Thread t = thread;
        return t != null && t.isAlive();
    }

    private static void gauge(MeterRegistry registry, String name, Source s, AtomicReference<SlotReading> reading,
                              ToDoubleFunction<SlotReading> value, String unit, String description) {
        Gauge.builder(name, reading, r -> value.applyAsDouble(r.get())).tag("source", s.name()).tag("slot", s.slot())
                .baseUnit(unit).description(description).register(registry);
    }

    private static double bytes(Long value) {
        return value == null ? Double.NaN : value;
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException | RuntimeException ignored) {
            // discarded either way
        }
    }
}
