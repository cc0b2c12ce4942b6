package dev.toolonce.relay.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.toolonce.relay.engine.RelayEngines;
import dev.toolonce.relay.engine.SourceStatus;

/**
 * {@code GET /ready}: 200 when the readiness indicators of {@link RelayHealth} are all up — Kafka
 * answers, every source database answers, every engine polls and delivers, every slot exists and is
 * streamed from — 503 otherwise; the body names each check and shows every source's state either
 * way. {@code GET /live}: 200 while the process serves HTTP, whatever its dependencies (for a
 * liveness probe that must not restart the relay because PostgreSQL or Kafka is down).
 * {@code /actuator/health/readiness} and {@code /liveness} report the same indicators with details.
 */
@RestController
public class ReadinessController {

    private final RelayEngines engines;
    private final Map<String, HealthIndicator> checks = new LinkedHashMap<>();

    public ReadinessController(RelayEngines engines,
                               @Qualifier("kafkaHealthIndicator") HealthIndicator kafka,
                               @Qualifier("sourceDatabasesHealthIndicator") HealthIndicator databases,
                               @Qualifier("sourceEnginesHealthIndicator") HealthIndicator sourceEngines,
                               @Qualifier("replicationSlotsHealthIndicator") HealthIndicator slots) {
        this.engines = engines;
        checks.put("kafka", kafka);
        checks.put("sourceDatabases", databases);
        checks.put("sourceEngines", sourceEngines);
        checks.put("replicationSlots", slots);
    }

    /** The readiness body: {@code status} is {@code ready} or {@code not ready}. */
    public record Readiness(String status, Map<String, Boolean> checks, List<SourceStatus> sources) {
    }

    @GetMapping("/ready")
    public ResponseEntity<Readiness> ready() {
        Map<String, Boolean> results = new LinkedHashMap<>();
        checks.forEach((name, check) -> results.put(name, Status.UP.equals(check.health().getStatus())));
        boolean ready = results.values().stream().allMatch(Boolean::booleanValue);
        Readiness body = new Readiness(ready ? "ready" : "not ready", results, engines.statuses());
        return ResponseEntity.status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).body(body);
    }

    @GetMapping("/live")
    public ResponseEntity<String> live() {
        return ResponseEntity.ok("live");
    }
}
