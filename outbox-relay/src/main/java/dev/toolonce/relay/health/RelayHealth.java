package dev.toolonce.relay.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.toolonce.relay.config.RelayProperties;
import dev.toolonce.relay.config.RelayProperties.Source;
import dev.toolonce.relay.engine.RelayEngines;
import dev.toolonce.relay.engine.SourceStatus;
import dev.toolonce.relay.slot.SlotReading;

/**
 * The relay's health for {@code /actuator/health} and its Kubernetes-style groups
 * ({@code /actuator/health/readiness}, {@code /actuator/health/liveness}; see toolonce-relay.yml and
 * docs/operations.md §2). None of them does I/O when asked: they report what the watchdog's probes
 * ({@link RelayProbes}, every second, one connection per source) last found.
 * <ul>
 *   <li>{@code kafka} — the cluster answered the last metadata request;</li>
 *   <li>{@code sourceDatabases} — every source database answered the last probe;</li>
 *   <li>{@code sourceEngines} — every source's Debezium engine polls its slot and has delivered
 *       recently (not preparing, snapshotting, backing off or stalled), or stands by while another
 *       relay streams from the slot (a warm standby is ready: it takes over when the slot is let go);</li>
 *   <li>{@code replicationSlots} — every slot exists, is streamed from and is not invalidated, with its
 *       retained WAL and unconfirmed lag in the details;</li>
 *   <li>{@code supervisors} — every source's supervisor thread and the watchdog are alive.</li>
 * </ul>
 * Readiness needs the first four; liveness only the last, because an outage of PostgreSQL or Kafka
 * is not cured by restarting the relay.
 */
@Configuration(proxyBeanMethods = false)
public class RelayHealth {

    @Bean
    HealthIndicator kafkaHealthIndicator(RelayProbes probes, RelayProperties props) {
        return () -> (probes.kafkaReachable() ? Health.up()
                : Health.down().withDetail("reason", "the Kafka cluster does not answer"))
                .withDetail("bootstrap", props.kafkaBootstrap()).build();
    }

    @Bean
    HealthIndicator sourceDatabasesHealthIndicator(RelayProbes probes, RelayProperties props) {
        return () -> databases(props.sources(), probes::databaseReachable);
    }

    @Bean
    HealthIndicator sourceEnginesHealthIndicator(RelayEngines engines) {
        return () -> engines(engines.statuses());
    }

    @Bean
    HealthIndicator replicationSlotsHealthIndicator(RelayProbes probes) {
        return () -> slots(probes.slotReadings());
    }

    @Bean
    HealthIndicator supervisorsHealthIndicator(RelayEngines engines) {
        return () -> engines.supervisorsAlive() ? Health.up().build()
                : Health.down().withDetail("reason", "a source supervisor or the watchdog thread has ended").build();
    }

    /** Up when every source's database answered the last probe; details per source. */
    static Health databases(List<Source> sources, Predicate<String> reachable) {
        Map<String, Object> details = new LinkedHashMap<>();
        boolean all = true;
        for (Source s : sources) {
            boolean up = reachable.test(s.name());
            details.put(s.name(), up ? "reachable" : "UNREACHABLE");
            all &= up;
        }
        return (all ? Health.up() : Health.down()).withDetails(details).build();
    }

    /** Up when there is at least one source and every engine runs; details per source. */
    static Health engines(List<SourceStatus> statuses) {
        Map<String, Object> details = new LinkedHashMap<>();
        for (SourceStatus s : statuses) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("state", s.state().name());
            d.put("running", s.running());
            if (s.lastError() != null) {
                d.put("lastError", s.lastError());
            }
            details.put(s.name(), d);
        }
        boolean up = !statuses.isEmpty() && statuses.stream().allMatch(SourceStatus::serving);
        return (up ? Health.up() : Health.down()).withDetails(details).build();
    }

    /** Up when there is at least one slot and every one is healthy; details per source. */
    static Health slots(List<SlotReading> readings) {
        Map<String, Object> details = new LinkedHashMap<>();
        for (SlotReading r : readings) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("slot", r.slot());
            d.put("present", r.present());
            d.put("active", r.active());
            putIfKnown(d, "walStatus", r.walStatus());
            putIfKnown(d, "retainedWalBytes", r.retainedWalBytes());
            putIfKnown(d, "confirmedLagBytes", r.confirmedLagBytes());
            putIfKnown(d, "checkedAt", r.checkedAt() == null ? null : r.checkedAt().toString());
            putIfKnown(d, "problem", r.problem());
            details.put(r.source(), d);
        }
        boolean up = !readings.isEmpty() && readings.stream().allMatch(SlotReading::healthy);
        return (up ? Health.up() : Health.down()).withDetails(details).build();
    }

    private static void putIfKnown(Map<String, Object> details, String key, Object value) {
        if (value != null) {
            details.put(key, value);
        }
    }
}
