package dev.toolonce.security.web;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.actuate.endpoint.CompositeHealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.Status;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * {@code GET /ready} of every service, read from the actuator's {@code readiness} health group
 * ({@code management.endpoint.health.group.readiness.include}), so the plain probe the scripts and tests wait on and
 * {@code /actuator/health/readiness} can never disagree: one list of checks, configured once per service. Before, each
 * service built {@code /ready} by hand from its own list of indicators, and the lists had drifted apart.
 */
public final class Readiness {
    /** The health group both probes read. */
    public static final String GROUP = "readiness";

    private Readiness() {
    }

    /**
     * @param extra further fields of the body (the relay's per-source states), after {@code status} and {@code checks}
     * @return 200 with {@code status: ready} when the group is UP, else 503 with {@code not ready}; {@code checks} names
     *     each member of the group, true when it is UP
     */
    public static ResponseEntity<Map<String, Object>> of(HealthEndpoint health, Map<String, Object> extra) {
        HealthDescriptor group = health.healthForPath(GROUP);
        boolean ready = group != null && Status.UP.equals(group.getStatus());
        Map<String, Object> checks = new LinkedHashMap<>();
        if (group instanceof CompositeHealthDescriptor composite) {
            composite.getComponents().forEach((name, member) -> checks.put(name, Status.UP.equals(member.getStatus())));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", ready ? "ready" : "not ready");
        body.put("checks", checks);
        body.putAll(extra);
        return ResponseEntity.status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).body(body);
    }
}
