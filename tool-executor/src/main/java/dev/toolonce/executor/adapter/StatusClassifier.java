package dev.toolonce.executor.adapter;

import java.util.Map;
import java.util.Set;

/**
 * Reads an HTTP status with the safe defaults of docs/adapters.md §3, then the tool's overrides:
 * the provider's "key reused" marker in an error body → review; an override for the exact status;
 * 2xx applied; 429 retryable; 401/403 pause; 408/409 indeterminate (in progress, or applied: reconcile);
 * 5xx retryable only with native idempotency, else indeterminate; the common validation statuses
 * (400, 404, 405, 410, 411, 413, 414, 415, 422) rejected; anything not listed indeterminate.
 */
final class StatusClassifier {
    private static final Set<Integer> REJECTING = Set.of(400, 404, 405, 410, 411, 413, 414, 415, 422);

    private final boolean nativeIdempotency;
    private final String keyReusedMarker;
    private final Map<Integer, Verdict> overrides;

    StatusClassifier(boolean nativeIdempotency, String keyReusedMarker, Map<Integer, Verdict> overrides) {
        this.nativeIdempotency = nativeIdempotency;
        this.keyReusedMarker = keyReusedMarker == null || keyReusedMarker.isBlank() ? null : keyReusedMarker;
        this.overrides = Map.copyOf(overrides);
    }

    /** Whether the tool has native idempotency: its 5xx may be resent under the same key. */
    boolean nativeIdempotency() {
        return nativeIdempotency;
    }

    Verdict classify(int status, String body) {
        boolean success = status >= 200 && status < 300;
        if (!success && keyReusedMarker != null && body != null && body.contains(keyReusedMarker)) {
            return Verdict.REVIEW;
        }
        Verdict override = overrides.get(status);
        if (override != null) {
            return override;
        }
        if (success) {
            return Verdict.APPLIED;
        }
        if (status == 429) {
            return Verdict.RETRYABLE;
        }
        if (status == 401 || status == 403) {
            return Verdict.PAUSE;
        }
        if (status >= 500 && status < 600) {
            return nativeIdempotency ? Verdict.RETRYABLE : Verdict.INDETERMINATE;
        }
        return REJECTING.contains(status) ? Verdict.REJECTED : Verdict.INDETERMINATE;
    }
}
