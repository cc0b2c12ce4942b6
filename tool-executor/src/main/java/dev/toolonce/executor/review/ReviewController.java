package dev.toolonce.executor.review;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.lifecycle.Event;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import dev.toolonce.executor.ledger.DeadLetterReplayStore;
import dev.toolonce.executor.ledger.PausedToolStore;
import dev.toolonce.executor.ledger.ReviewAuditStore;
import dev.toolonce.security.TenantScope;
import dev.toolonce.security.web.Limits;
import java.util.NoSuchElementException;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The operator API behind {@code ./toolonce review list | resolve | audit} (docs/security.md): viewers read the calls
 * in review and the audit of their tenants, operators resolve them. Another tenant's call is 404, as if it did not
 * exist; the audit records the authenticated principal.
 */
@RestController
public class ReviewController {
    private final ReviewService reviews;
    private final ReviewAuditStore audit;
    private final PausedToolStore pauses;
    private final DeadLetterReplayStore replays;

    public ReviewController(ReviewService reviews, ReviewAuditStore audit, PausedToolStore pauses,
                            DeadLetterReplayStore replays) {
        this.reviews = reviews;
        this.audit = audit;
        this.pauses = pauses;
        this.replays = replays;
    }

    /**
     * A resolution request: {@code scope} is the record key {@code tenant/tool/operation/key}. Anything else in the
     * body (an {@code operator} field of older clients) is ignored: the audit records the authenticated principal.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Resolve(String scope, String action, String externalId, String note) {
    }

    @GetMapping("/review")
    @PreAuthorize("hasRole('VIEWER')")
    public List<Map<String, Object>> list(@RequestParam(defaultValue = "100") int limit, Authentication who) {
        return reviews.pending(TenantScope.of(who).sqlFilter(), Limits.page(limit)).stream().map(ReviewController::view)
                .toList();
    }

    @PostMapping("/review/resolve")
    @PreAuthorize("hasRole('OPERATOR')")
    public Map<String, Object> resolve(@RequestBody Resolve r, Authentication who) {
        CallScope scope = parse(r.scope());
        if (!TenantScope.of(who).includes(scope.tenantId())) {
            throw new NoSuchElementException("no call for scope " + scope); // exactly what a missing call answers
        }
        Event.Action action = Event.Action.of(r.action());
        return view(reviews.resolve(scope, action, r.externalId(), who.getName(), r.note()));
    }

    /**
     * Who resolved which call, who resumed which tool and who replayed which dead letter: newest first, the caller's
     * tenants only.
     */
    @GetMapping({"/audit", "/api/v1/audit"})
    @PreAuthorize("hasRole('VIEWER')")
    public Map<String, Object> audit(@RequestParam(defaultValue = "100") int limit, Authentication who) {
        String[] tenants = TenantScope.of(who).sqlFilter();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("resolutions", audit.list(tenants, Limits.page(limit)));
        // the resumes of the caller's tenants' pauses, and of the pauses of every tenant ('*'), which held theirs too
        m.put("toolResumes", pauses.resumes(tenants, Limits.page(limit)));
        m.put("deadLetterReplays", replays.list(tenants, Limits.page(limit)));
        return m;
    }

    /** Splits a record key: the first three segments cannot contain '/', the key is the rest. */
    static CallScope parse(String scope) {
        String[] parts = scope == null ? new String[0] : scope.split("/", 4);
        if (parts.length != 4) {
            throw new IllegalArgumentException("scope must be tenant/tool/operation/idempotencyKey, was " + scope);
        }
        return new CallScope(parts[0], parts[1], parts[2], parts[3]);
    }

    private static Map<String, Object> view(ToolCall c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scope", c.scope().recordKey());
        m.put("state", c.state().name());
        m.put("attempts", c.attempts());
        m.put("fence", c.fence());
        m.put("externalObjectId", c.externalObjectId());
        m.put("errorCode", c.errorCode());
        m.put("errorMessage", c.errorMessage());
        return m;
    }
}
