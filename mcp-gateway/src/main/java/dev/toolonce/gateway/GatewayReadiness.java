package dev.toolonce.gateway;

import dev.toolonce.security.web.Readiness;
import java.util.Map;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /ready}, as every ToolOnce service answers it: the readiness group, 200 or 503 naming what is wrong. */
@RestController
class GatewayReadiness {
    private final HealthEndpoint health;

    GatewayReadiness(HealthEndpoint health) {
        this.health = health;
    }

    @GetMapping("/ready")
    ResponseEntity<Map<String, Object>> ready() {
        return Readiness.of(health, Map.of());
    }
}
