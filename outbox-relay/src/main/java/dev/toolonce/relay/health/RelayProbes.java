package dev.toolonce.relay.health;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import dev.toolonce.relay.config.RelayProperties;
import dev.toolonce.relay.slot.SlotReading;
import dev.toolonce.relay.stats.RelayStats;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Whether the relay's dependencies answer and what its replication slots look like: one
 * {@link SourceProbe} per source (one kept connection each, for the database check and the slot
 * query alike) and a metadata request to the Kafka cluster. {@link #probeAll()} runs on the relay's
 * watchdog thread, every second, never on the path of an event; the health indicators of
 * {@link RelayHealth} (and so {@code /ready}), the source statuses and the gauges read the latest
 * results from any thread. A dependency counts as unreachable until its first probe answered.
 *
 * <p>The slot gauges, tagged {@code source} and {@code slot}:
 * <ul>
 *   <li>{@value #RETAINED_WAL} (bytes) — WAL the server keeps for the slot, from its {@code restart_lsn}:
 *       what a stopped relay costs the database's disk;</li>
 *   <li>{@value #CONFIRMED_LAG} (bytes) — WAL written since the position the relay last confirmed
 *       ({@code confirmed_flush_lsn}); it grows between offset flushes and while the relay is behind;</li>
 *   <li>{@value #ACTIVE} — 1 while a process streams from the slot;</li>
 *   <li>{@value #PRESENT} — 1 while the slot exists.</li>
 * </ul>
 * A byte gauge is NaN while its value is unknown (before the first probe, a missing or invalidated
 * slot). When a probe fails (the database does not answer) the gauges keep their last values and the
 * reading carries the error.
 */
@Component
public class RelayProbes {

    public static final String RETAINED_WAL = "toolonce.relay.slot.retained_wal";
    public static final String CONFIRMED_LAG = "toolonce.relay.slot.confirmed_lag";
    public static final String ACTIVE = "toolonce.relay.slot.active";
    public static final String PRESENT = "toolonce.relay.slot.present";
    private static final int KAFKA_TIMEOUT_SECONDS = 3;
    private static final Logger log = LoggerFactory.getLogger(RelayProbes.class);

    /** One per source, in configuration order. */
    private final Map<String, SourceProbe> sources;
    private final BooleanSupplier kafkaCheck;
    private final RelayStats stats;
    private volatile boolean kafka;
    private boolean kafkaProbedBefore;

    @Autowired
    public RelayProbes(RelayProperties props, Admin relayAdmin, MeterRegistry registry, Clock relayClock,
                       RelayStats stats) {
        this(props.sources().stream().map(s -> SourceProbe.jdbc(s, relayClock)).toList(),
                () -> kafkaAnswers(relayAdmin), registry, stats);
    }

    RelayProbes(List<SourceProbe> probes, BooleanSupplier kafkaCheck, MeterRegistry registry, RelayStats stats) {
        this.sources = probes.stream().collect(Collectors.toMap(SourceProbe::source, Function.identity(),
                (a, b) -> a, LinkedHashMap::new));
        this.kafkaCheck = kafkaCheck;
        this.stats = stats;
        probes.forEach(p -> registerGauges(registry, p));
    }

    /**
     * Probes every source and Kafka once. Each probe runs on its own: one that throws anything (a bug, an
     * {@link Error}) is logged and counted ({@link RelayStats#watchdogFailed}) and the others still run. Never throws.
     */
    public void probeAll() {
        for (SourceProbe probe : sources.values()) {
            try {
                probe.probe();
            } catch (Throwable e) { // the watchdog must outlive anything a probe does
                log.error("Source '{}': probe failed unexpectedly", probe.source(), e);
                stats.watchdogFailed(probe.source(), RelayStats.STEP_PROBE);
            }
        }
        try {
            boolean before = kafka;
            kafka = kafkaCheck.getAsBoolean();
            logKafka(before, kafka);
        } catch (Throwable e) {
            kafka = false;
            log.error("Kafka probe failed unexpectedly", e);
            stats.watchdogFailed(RelayStats.ALL_SOURCES, RelayStats.STEP_KAFKA);
        }
    }

    /**
     * @param source a configured source's name
     * @return what its latest probe found; "nothing known" for a name that is not a source. Never null.
     */
    public ProbeReading reading(String source) {
        SourceProbe probe = sources.get(source);
        return probe == null ? ProbeReading.unknown(source, "") : probe.latest();
    }

    /** Whether the latest probe of the source's database answered. */
    public boolean databaseReachable(String source) {
        return reading(source).databaseReachable();
    }

    /** The latest reading of every source's slot, in configuration order. */
    public List<SlotReading> slotReadings() {
        return sources.values().stream().map(p -> p.latest().slot()).toList();
    }

    /** Whether the last metadata request to Kafka answered with at least one broker. */
    public boolean kafkaReachable() {
        return kafka;
    }

    /** Closes the kept connections; call once the watchdog has ended. */
    public void close() {
        sources.values().forEach(SourceProbe::close);
    }

    private static boolean kafkaAnswers(Admin admin) {
        try {
            return !admin.describeCluster(new DescribeClusterOptions().timeoutMs(KAFKA_TIMEOUT_SECONDS * 1000))
                    .nodes().get(KAFKA_TIMEOUT_SECONDS + 1L, TimeUnit.SECONDS).isEmpty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            log.debug("Kafka probe failed", e);
            return false;
        }
    }

    private void logKafka(boolean before, boolean now) {
        boolean first = !kafkaProbedBefore;
        kafkaProbedBefore = true;
        if (!first && before == now) {
            return;
        }
        if (now) {
            log.info("Kafka is reachable");
        } else {
            log.warn("Kafka is UNREACHABLE; the relay is not ready until it answers again");
        }
    }

    private static void registerGauges(MeterRegistry registry, SourceProbe probe) {
        gauge(registry, RETAINED_WAL, probe, r -> bytes(r.retainedWalBytes()), "bytes",
                "WAL the server keeps for the relay's replication slot (current position - restart_lsn)");
        gauge(registry, CONFIRMED_LAG, probe, r -> bytes(r.confirmedLagBytes()), "bytes",
                "WAL written since the position the relay last confirmed (current position - confirmed_flush_lsn)");
        gauge(registry, ACTIVE, probe, r -> r.checkedAt() == null ? Double.NaN : r.active() ? 1 : 0, null,
                "1 while a process streams from the replication slot");
        gauge(registry, PRESENT, probe, r -> r.checkedAt() == null ? Double.NaN : r.present() ? 1 : 0, null,
                "1 while the replication slot exists");
    }

    private static void gauge(MeterRegistry registry, String name, SourceProbe probe,
                              ToDoubleFunction<SlotReading> value, String unit, String description) {
        SlotReading first = probe.latest().slot();
        Gauge.builder(name, probe, p -> value.applyAsDouble(p.latest().slot())).tag("source", first.source())
                .tag("slot", first.slot()).baseUnit(unit).description(description).register(registry);
    }

    private static double bytes(Long value) {
        return value == null ? Double.NaN : value;
    }
}
