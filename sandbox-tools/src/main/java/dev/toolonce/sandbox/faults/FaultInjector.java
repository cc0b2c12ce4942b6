package dev.toolonce.sandbox.faults;

import dev.toolonce.sandbox.http.Endpoint;
import dev.toolonce.sandbox.http.Request;
import dev.toolonce.sandbox.http.Response;

/**
 * Wraps a tool endpoint with the tool's faults: latency, then 401 for a revoked {@code Authorization} value
 * ({@code refusedAuthorization}), then the deterministic {@code failStatus}, then
 * 429 or 503 without applying, then
 * the endpoint (its ledger transaction commits), then drop the response or stall.
 */
public final class FaultInjector {

    private final FaultRegistry registry;
    private final FaultDice dice;

    public FaultInjector(FaultRegistry registry, FaultDice dice) {
        this.registry = registry;
        this.dice = dice;
    }

    /** @return {@code endpoint} subject to the faults configured for {@code tool} */
    public Endpoint wrap(String tool, Endpoint endpoint) {
        ToolFaults faults = registry.require(tool);
        return request -> {
            FaultConfig config = faults.config();
            delay(faults, FaultKind.LATENCY, config.latencyMs());
            Response refusal = refusedCredential(faults, config, request);
            if (refusal == null) {
                refusal = refusal(faults, config);
            }
            if (refusal != null) {
                return refusal;
            }
            Response response = endpoint.handle(request);
            if (response.afterLedger() && config.failStatusAfterApply() && faults.takeFailStatus()) {
                faults.count(FaultKind.STATUS_AFTER_APPLY);
                return Response.error(config.failStatus(), "injected_status", "injected fault after applying");
            }
            return response.afterLedger() ? afterApply(faults, config, response) : response;
        };
    }

    /** @return the lookup {@code endpoint} answering {@code lookupFailStatus} while {@code lookupFailStatusNext} lasts */
    public Endpoint wrapLookup(String tool, Endpoint endpoint) {
        ToolFaults faults = registry.require(tool);
        return request -> {
            FaultConfig config = faults.config();
            Response refused = refusedCredential(faults, config, request);
            if (refused != null) {
                return refused;
            }
            if (faults.takeLookupFailStatus()) {
                faults.count(FaultKind.LOOKUP_STATUS);
                return Response.error(config.lookupFailStatus(), "injected_lookup_status", "injected fault");
            }
            return endpoint.handle(request);
        };
    }

    /** 401 for a request sent with the revoked {@code Authorization} value; null for any other. */
    private static Response refusedCredential(ToolFaults faults, FaultConfig config, Request request) {
        if (config.refusedAuthorization() == null
                || !config.refusedAuthorization().equals(request.header("Authorization"))) {
            return null;
        }
        faults.count(FaultKind.REFUSED_AUTHORIZATION);
        return Response.error(401, "invalid_api_key", "injected fault: this key is no longer accepted");
    }

    private Response refusal(ToolFaults faults, FaultConfig config) {
        if (!config.failStatusAfterApply() && faults.takeFailStatus()) {
            faults.count(FaultKind.STATUS);
            Response r = Response.error(config.failStatus(), "injected_status", "injected fault");
            return config.failStatus() == 429 || config.failStatus() == 503 ? r.withHeader("Retry-After", "1") : r;
        }
        switch (dice.beforeApply(config)) {
            case TOO_MANY_REQUESTS -> {
                faults.count(FaultKind.HTTP_429);
                return Response.error(429, "rate_limited", "injected fault").withHeader("Retry-After", "1");
            }
            case UNAVAILABLE -> {
                faults.count(FaultKind.HTTP_5XX);
                return Response.error(503, "unavailable", "injected fault");
            }
            default -> {
                return null;
            }
        }
    }

    private Response afterApply(ToolFaults faults, FaultConfig config, Response response) {
        switch (dice.afterApply(config, faults.takeFailNext())) {
            case DROP_FAIL_NEXT -> {
                faults.count(FaultKind.FAIL_NEXT);
                faults.count(FaultKind.DROP_RESPONSE);
                return Response.dropped();
            }
            case DROP -> {
                faults.count(FaultKind.DROP_RESPONSE);
                return Response.dropped();
            }
            case STALL -> {
                delay(faults, FaultKind.STALL, config.stallMs());
                return response;
            }
            default -> {
                return response;
            }
        }
    }

    private static void delay(ToolFaults faults, FaultKind kind, long millis) {
        if (millis <= 0) {
            return;
        }
        faults.count(kind);
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            // The server is stopping: answer at once and keep the interrupt for the pool.
            Thread.currentThread().interrupt();
        }
    }
}
