package dev.toolonce.relay.health;

import java.util.Map;

import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.toolonce.relay.engine.RelayEngines;
import dev.toolonce.security.web.Readiness;

/**
 * {@code GET /ready}: the readiness health group ({@link RelayHealth}'s readiness indicators — Kafka answers, every
 * source database answers, every engine polls and delivers, every slot exists and is streamed from): 200, or 503
 * naming what is wrong; the body also shows every source's state either way. {@code GET /live}: 200 while the process
 * serves HTTP, whatever its dependencies (for a liveness probe that must not restart the relay because PostgreSQL or
 * Kafka is down). {@code /actuator/health/readiness} and {@code /liveness} report the same groups with details.
 */
@RestController
public class ReadinessController {

    private final RelayEngines engines;
    private final HealthEndpoint health;

    public ReadinessController(RelayEngines engines, HealthEndpoint health) {
        this.engines = engines;
        this.health = health;
    }

    @GetMapping("/ready")
    public ResponseEntity<Map<String, Object>> ready() {
        return Readiness.of(health, Map.of("sources", engines.statuses()));
    }

    @GetMapping("/live")
    public ResponseEntity<String> live() {
        return ResponseEntity.ok("live");
    }
}
