package dev.toolonce.sandbox.faults;

import dev.toolonce.sandbox.http.HttpProblem;
import dev.toolonce.sandbox.http.Json;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The fault knobs of one tool. All zero means no faults.
 *
 * @param latencyMs              sleep before handling each request
 * @param rate5xx                probability of answering 503 without applying
 * @param rate429                probability of answering 429 ({@code Retry-After: 1}) without applying
 * @param dropResponseAfterApply probability of closing the connection after applying
 * @param stallMs                sleep after applying, before responding
 * @param failNext               how many of the next applied requests lose their response
 * @param failStatus             status the next {@code failStatusNext} requests are answered with, without
 *                               applying ({@code Retry-After: 1} with 429 and 503); 0 for none
 * @param failStatusNext         how many requests get {@code failStatus}
 * @param failStatusAfterApply   answer {@code failStatus} only after the effect was applied (the ledger
 *                               committed): the tool failed after doing the work, as a real 5xx or 409 may
 * @param lookupFailStatus       status the next {@code lookupFailStatusNext} lookups are answered with
 * @param lookupFailStatusNext   how many lookups get {@code lookupFailStatus}; 0 leaves lookups unfaulted
 * @param refusedAuthorization   an {@code Authorization} value the tool no longer accepts (a revoked key): every
 *                               request and lookup sent with exactly this value is answered 401 without applying,
 *                               until cleared; null for none. Lets a test refuse one tenant's credential only.
 */
public record FaultConfig(long latencyMs, double rate5xx, double rate429, double dropResponseAfterApply,
                          long stallMs, int failNext, int failStatus, int failStatusNext, boolean failStatusAfterApply,
                          int lookupFailStatus, int lookupFailStatusNext, String refusedAuthorization) {

    /** No faults. */
    public static final FaultConfig NONE = new FaultConfig(0, 0, 0, 0, 0, 0);

    private static final List<String> FIELDS = List.of("latencyMs", "rate5xx", "rate429", "dropResponseAfterApply",
            "stallMs", "failNext", "failStatus", "failStatusNext", "failStatusAfterApply", "lookupFailStatus",
            "lookupFailStatusNext", "refusedAuthorization");

    public FaultConfig {
        if (failStatusNext > 0 && (failStatus < 400 || failStatus > 599)) {
            throw HttpProblem.badRequest("failStatus must be a 4xx or 5xx status when failStatusNext > 0");
        }
        if (lookupFailStatusNext > 0 && (lookupFailStatus < 400 || lookupFailStatus > 599)) {
            throw HttpProblem.badRequest("lookupFailStatus must be a 4xx or 5xx status when lookupFailStatusNext > 0");
        }
        if (refusedAuthorization != null && refusedAuthorization.isBlank()) {
            throw HttpProblem.badRequest("refusedAuthorization must be a header value or absent");
        }
    }

    /** Status faults, lookups faulted as given, every credential accepted. */
    public FaultConfig(long latencyMs, double rate5xx, double rate429, double dropResponseAfterApply, long stallMs,
                       int failNext, int failStatus, int failStatusNext, boolean failStatusAfterApply,
                       int lookupFailStatus, int lookupFailStatusNext) {
        this(latencyMs, rate5xx, rate429, dropResponseAfterApply, stallMs, failNext, failStatus, failStatusNext,
                failStatusAfterApply, lookupFailStatus, lookupFailStatusNext, null);
    }

    /** Status faults answered before applying, lookups unfaulted. */
    public FaultConfig(long latencyMs, double rate5xx, double rate429, double dropResponseAfterApply, long stallMs,
                       int failNext, int failStatus, int failStatusNext) {
        this(latencyMs, rate5xx, rate429, dropResponseAfterApply, stallMs, failNext, failStatus, failStatusNext,
                false, 0, 0);
    }

    /** Without a deterministic status fault. */
    public FaultConfig(long latencyMs, double rate5xx, double rate429, double dropResponseAfterApply, long stallMs,
                       int failNext) {
        this(latencyMs, rate5xx, rate429, dropResponseAfterApply, stallMs, failNext, 0, 0);
    }

    /**
     * Reads a {@code PUT /_faults/{tool}} body; missing fields are 0.
     *
     * @throws HttpProblem 400 naming the field that is unknown, not a number or out of range
     */
    public static FaultConfig fromJson(ObjectNode body) {
        for (Map.Entry<String, JsonNode> field : body.properties()) {
            if (!FIELDS.contains(field.getKey())) {
                throw HttpProblem.badRequest("unknown field " + field.getKey() + ", expected one of " + FIELDS);
            }
        }
        return new FaultConfig(millis(body, "latencyMs"), rate(body, "rate5xx"), rate(body, "rate429"),
                rate(body, "dropResponseAfterApply"), millis(body, "stallMs"), count(body, "failNext"),
                count(body, "failStatus"), count(body, "failStatusNext"), flag(body, "failStatusAfterApply"),
                count(body, "lookupFailStatus"), count(body, "lookupFailStatusNext"),
                text(body, "refusedAuthorization"));
    }

    private static String text(ObjectNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isString()) {
            throw HttpProblem.badRequest(field + " must be a string");
        }
        return node.asString();
    }

    private static boolean flag(ObjectNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return false;
        }
        if (!node.isBoolean()) {
            throw HttpProblem.badRequest(field + " must be true or false");
        }
        return node.booleanValue();
    }

    /** @return this configuration as JSON, with the counts of {@code failNext}/{@code failStatusNext} left */
    public ObjectNode toJson(int failNextLeft, int failStatusLeft) {
        return Json.object()
                .put("latencyMs", latencyMs)
                .put("rate5xx", rate5xx)
                .put("rate429", rate429)
                .put("dropResponseAfterApply", dropResponseAfterApply)
                .put("stallMs", stallMs)
                .put("failNext", failNextLeft)
                .put("failStatus", failStatus)
                .put("failStatusNext", failStatusLeft)
                .put("failStatusAfterApply", failStatusAfterApply)
                .put("lookupFailStatus", lookupFailStatus)
                .put("lookupFailStatusNext", lookupFailStatusNext)
                // whether one is set, never the value: the report must not hand out a credential
                .put("refusedAuthorization", refusedAuthorization != null);
    }

    private static double rate(ObjectNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return 0;
        }
        if (!node.isNumber() || node.doubleValue() < 0 || node.doubleValue() > 1) {
            throw HttpProblem.badRequest(field + " must be a number between 0 and 1");
        }
        return node.doubleValue();
    }

    private static long millis(ObjectNode body, String field) {
        return nonNegativeInteger(body, field, Long.MAX_VALUE);
    }

    private static int count(ObjectNode body, String field) {
        return (int) nonNegativeInteger(body, field, Integer.MAX_VALUE);
    }

    private static long nonNegativeInteger(ObjectNode body, String field, long max) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return 0;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < 0 || node.longValue() > max) {
            throw HttpProblem.badRequest(field + " must be an integer between 0 and " + max);
        }
        return node.longValue();
    }
}
