package dev.toolonce.relay.engine;

import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /ready}: 200 when the relay can do its work — Kafka answers, and for every source
 * the database answers, the slot exists and the engine polls and delivers — 503 otherwise; the
 * body says which part is missing either way. {@code GET /live}: 200 while the process serves
 * HTTP, whatever its dependencies (for a liveness probe that must not restart the relay because
 * PostgreSQL or Kafka is down).
 */
@RestController
public class ReadinessController {

    private final RelayEngines engines;

    public ReadinessController(RelayEngines engines) {
        this.engines = engines;
    }

    /** The readiness body. */
    public record Readiness(boolean ready, boolean kafkaReachable, List<SourceStatus> sources) {

        /** Ready when Kafka answers and every source is ready; never with no sources. */
        public static Readiness of(boolean kafkaReachable, List<SourceStatus> sources) {
            boolean ready = kafkaReachable && !sources.isEmpty() && sources.stream().allMatch(SourceStatus::ready);
            return new Readiness(ready, kafkaReachable, sources);
        }
    }

    @GetMapping("/ready")
    public ResponseEntity<Readiness> ready() {
        Readiness readiness = Readiness.of(engines.kafkaReachable(), engines.statuses());
        return ResponseEntity.status(readiness.ready() ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE)
                .body(readiness);
    }

    @GetMapping("/live")
    public ResponseEntity<String> live() {
        return ResponseEntity.ok("live");
    }
}
