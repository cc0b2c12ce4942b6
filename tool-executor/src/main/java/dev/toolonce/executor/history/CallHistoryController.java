package dev.toolonce.executor.history;

import dev.toolonce.core.call.CallState;
import dev.toolonce.security.TenantScope;
import dev.toolonce.security.web.Limits;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Map;
import java.util.NoSuchElementException;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Operator API v1, calls (issue 23; docs/operations.md §9): find calls by tenant, tool, operation, state, task, time
 * range and key prefix, a page at a time; read one call's whole history. Role viewer, the caller's tenants only
 * (another tenant's call is 404, as a missing one); errors are RFC 9457 problem details.
 */
@RestController
public class CallHistoryController {
    private final CallHistory history;

    public CallHistoryController(CallHistory history) {
        this.history = history;
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
    public Map<String, Object> call(@PathVariable long id, Authentication who) {
        return history.call(TenantScope.of(who).sqlFilter(), id)
                .orElseThrow(() -> new NoSuchElementException("no call " + id));
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
