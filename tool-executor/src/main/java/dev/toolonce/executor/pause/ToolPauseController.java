package dev.toolonce.executor.pause;

import dev.toolonce.executor.execution.Dispatcher;
import dev.toolonce.executor.ledger.PausedToolStore;
import dev.toolonce.security.TenantScope;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The operator API behind {@code ./toolonce tools paused | resume <tool> [--tenant T]} (docs/adapters.md §6,
 * docs/security.md §5). A pause belongs to one tenant, or to every tenant ({@value PausedToolStore#EVERY_TENANT});
 * a viewer sees the pauses of its tenants and those of every tenant (which hold its calls too), an admin resumes the
 * pauses of its tenants, and only an admin of every tenant resumes a pause of every tenant. Another tenant's pause is
 * answered 404, as if it did not exist.
 */
@RestController
public class ToolPauseController {
    private final PausedToolStore pauses;
    private final Dispatcher dispatcher;

    public ToolPauseController(PausedToolStore pauses, Dispatcher dispatcher) {
        this.pauses = pauses;
        this.dispatcher = dispatcher;
    }

    @GetMapping({"/tools/paused", "/api/v1/tools/paused"})
    @PreAuthorize("hasRole('VIEWER')")
    public List<Map<String, Object>> paused(Authentication who) {
        return pauses.paused(TenantScope.of(who).sqlFilter());
    }

    /**
     * Resumes the pause of {@code tool} for {@code tenant} (default {@value PausedToolStore#EVERY_TENANT}): its
     * waiting calls are claimed again at once, unless a pause of every tenant still holds them. Idempotent; audited
     * under the principal.
     */
    @PostMapping({"/tools/{tool}/resume", "/api/v1/tools/{tool}/resume"})
    @PreAuthorize("hasRole('ADMIN')")
    public Map<String, Object> resume(@PathVariable String tool,
                                      @RequestParam(defaultValue = PausedToolStore.EVERY_TENANT) String tenant,
                                      Authentication who) {
        mayResume(TenantScope.of(who), tool, tenant);
        boolean resumed = pauses.resume(tool, tenant, who.getName());
        dispatcher.wake();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tool", tool);
        m.put("tenant", tenant);
        m.put("resumed", resumed);
        return m;
    }

    /**
     * Who may lift which pause: a pause of every tenant only an admin of every tenant ({@code 403} otherwise: the
     * pause holds the caller's calls too, so it may know of it); a tenant's pause an admin of that tenant ({@code 404}
     * otherwise, exactly what a missing pause of an unknown tenant answers).
     *
     * @throws AccessDeniedException  for a pause of every tenant and a principal of some tenants only
     * @throws NoSuchElementException for another tenant's pause
     */
    static void mayResume(TenantScope scope, String tool, String tenant) {
        if (PausedToolStore.EVERY_TENANT.equals(tenant)) {
            if (!scope.all()) {
                throw new AccessDeniedException("the pause of tool '" + tool + "' for every tenant holds every tenant's "
                        + "calls: resuming it needs an admin of every tenant; resume a pause of your tenant with "
                        + "?tenant=<id>");
            }
        } else if (!scope.includes(tenant)) {
            throw new NoSuchElementException("no pause of tool '" + tool + "' for tenant '" + tenant + "'");
        }
    }
}
