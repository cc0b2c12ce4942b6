package dev.toolonce.executor.history;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.lifecycle.Event;
import dev.toolonce.executor.review.ReviewService;
import dev.toolonce.security.TenantScope;
import dev.toolonce.security.web.Limits;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Map;
import java.util.NoSuchElementException;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Operator API v1, calls (issue 23; docs/operations.md §4, "Operator API v1"): find calls by tenant, tool, operation,
 * state, task, time range and key prefix, a page at a time; read one call's whole history; the review queue with each
 * call's timeline; resolve a call in review with a required reason. Reads need the role viewer, a resolution the role
 * operator; the caller's tenants only (another tenant's call is 404, as a missing one); errors are RFC 9457 problem
 * details.
 */
@RestController
public class CallHistoryController {
    private final CallHistory history;
    private final ReviewService reviews;
    private final Overview overview;

    public CallHistoryController(CallHistory history, ReviewService reviews, Overview overview) {
        this.history = history;
        this.reviews = reviews;
        this.overview = overview;
    }

    /**
     * The console's overview of the caller's tenants' calls in [since, until) (default: the last 24 hours): calls by
     * state, transitions over time, recovery and compensation figures ({@link Overview}).
     */
    @GetMapping("/api/v1/overview")
    @PreAuthorize("hasRole('VIEWER')")
    public Map<String, Object> overview(@RequestParam(required = false) String since,
                                        @RequestParam(required = false) String until, Authentication who) {
        Instant to = until == null ? Instant.now() : instant("until", until);
        Instant from = since == null ? to.minus(Duration.ofDays(1)) : instant("since", since);
        return overview.of(TenantScope.of(who).sqlFilter(), from, to);
    }

    @GetMapping("/api/v1/calls")
    @PreAuthorize("hasRole('VIEWER')")
    public CallHistory.Page search(@RequestParam(required = false) String tenant,
                                   @RequestParam(required = false) String tool,
                                   @RequestParam(required = false) String operation,
                                   @RequestParam(required = false) String state,
                                   @RequestParam(required = false) String task,
                                   @RequestParam(required = false) String since,
                                   @RequestParam(required = false) String until,
                                   @RequestParam(required = false) String keyPrefix,
                                   @RequestParam(required = false) String cursor,
                                   @RequestParam(defaultValue = "50") int limit, Authentication who) {
        CallHistory.Filter f = new CallHistory.Filter(tenant, tool, operation, state(state), task,
                instant("since", since), instant("until", until), keyPrefix);
        return history.search(TenantScope.of(who).sqlFilter(), f, cursor, Limits.page(limit));
    }

    @GetMapping("/api/v1/calls/{id}")
    @PreAuthorize("hasRole('VIEWER')")
    public Map<String, Object> call(@PathVariable String id, Authentication who) {
        return history.call(TenantScope.of(who).sqlFilter(), id(id))
                .orElseThrow(() -> new NoSuchElementException("no call " + id));
    }

    @GetMapping("/api/v1/reviews")
    @PreAuthorize("hasRole('VIEWER')")
    public CallHistory.Page reviews(@RequestParam(required = false) String tenant,
                                    @RequestParam(required = false) String tool,
                                    @RequestParam(required = false) String operation,
                                    @RequestParam(required = false) String cursor,
                                    @RequestParam(defaultValue = "50") int limit, Authentication who) {
        CallHistory.Filter f = new CallHistory.Filter(tenant, tool, operation, null, null, null, null, null);
        return history.inReview(TenantScope.of(who).sqlFilter(), f, cursor, Limits.page(limit));
    }

    /**
     * A resolution of a call in review: {@code action} commit (with the {@code externalId} the operator found), retry,
     * fail or compensate, and the operator's {@code reason}, which is required and audited with the token's principal.
     */
    public record Resolution(String action, String externalId, String reason) {
    }

    @PostMapping("/api/v1/calls/{id}/resolution")
    @PreAuthorize("hasRole('OPERATOR')")
    public Map<String, Object> resolve(@PathVariable("id") String path, @RequestBody Resolution r,
                                       Authentication who) {
        long id = id(path);
        if (r.reason() == null || r.reason().isBlank()) {
            throw new IllegalArgumentException("reason is required: say why this resolution is right");
        }
        Event.Action action = Event.Action.of(r.action());
        String[] tenants = TenantScope.of(who).sqlFilter();
        CallScope scope = history.scope(tenants, id).orElseThrow(() -> new NoSuchElementException("no call " + id));
        reviews.resolve(scope, action, r.externalId(), who.getName(), r.reason());
        return history.call(tenants, id).orElseThrow(() -> new NoSuchElementException("no call " + id));
    }

    /**
     * A call's id from its path. Parsed here, not by Spring MVC, so that a request refused by its role is refused (403)
     * whatever its path says, before anything of it is read.
     */
    private static long id(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a call's id is a number (was " + s + ")");
        }
    }

    private static CallState state(String s) {
        if (s == null) {
            return null;
        }
        try {
            return CallState.valueOf(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("state must be one of " + Arrays.toString(CallState.values())
                    + " (was " + s + ")");
        }
    }

    private static Instant instant(String name, String s) {
        try {
            return s == null ? null : Instant.parse(s);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(name + " must be an ISO-8601 instant such as 2026-12-06T10:00:00Z (was "
                    + s + ")");
        }
    }
}
