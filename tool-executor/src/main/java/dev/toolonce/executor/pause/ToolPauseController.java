package dev.toolonce.executor.pause;

import dev.toolonce.executor.execution.Dispatcher;
import dev.toolonce.executor.ledger.PausedToolStore;
import dev.toolonce.security.TenantScope;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** The operator API behind {@code ./toolonce tools paused | resume <tool>}. */
@RestController
public class ToolPauseController {
    private final PausedToolStore pauses;
    private final Dispatcher dispatcher;

    public ToolPauseController(PausedToolStore pauses, Dispatcher dispatcher) {
        this.pauses = pauses;
        this.dispatcher = dispatcher;
    }

    @GetMapping("/tools/paused")
    @PreAuthorize("hasRole('VIEWER')")
    public List<Map<String, Object>> paused() {
        return pauses.paused();
    }

    /**
     * Resumes a paused tool: its waiting calls are claimed again at once. Idempotent; audited under the principal. A
     * pause holds the calls of every tenant, so only an admin of every tenant may lift it.
     */
    @PostMapping("/tools/{tool}/resume")
    @PreAuthorize("hasRole('ADMIN')")
    public Map<String, Object> resume(@PathVariable String tool, Authentication who) {
        if (!TenantScope.of(who).all()) {
            throw new AccessDeniedException("a tool's pause holds every tenant's calls: resuming it needs an admin of every tenant");
        }
        boolean resumed = pauses.resume(tool, who.getName());
        dispatcher.wake();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tool", tool);
        m.put("resumed", resumed);
        return m;
    }
}
