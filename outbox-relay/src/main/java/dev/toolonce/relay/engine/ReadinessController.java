package dev.toolonce.relay.engine;

import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /ready}: 200 when every source's slot exists and its engine polls, 503 otherwise;
 * the body lists every source either way.
 */
@RestController
public class ReadinessController {

    private final RelayEngines engines;

    public ReadinessController(RelayEngines engines) {
        this.engines = engines;
    }

    /** The readiness body. */
    public record Readiness(boolean ready, List<SourceStatus> sources) {
    }

    @GetMapping("/ready")
    public ResponseEntity<Readiness> ready() {
        List<SourceStatus> sources = engines.statuses();
        boolean ready = !sources.isEmpty() && sources.stream().allMatch(SourceStatus::ready);
        return ResponseEntity.status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE)
                .body(new Readiness(ready, sources));
    }
}
