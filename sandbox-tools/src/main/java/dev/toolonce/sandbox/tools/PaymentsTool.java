package dev.toolonce.sandbox.tools;

import dev.toolonce.sandbox.http.HttpProblem;
import dev.toolonce.sandbox.http.Json;
import dev.toolonce.sandbox.http.Request;
import dev.toolonce.sandbox.http.Response;
import dev.toolonce.sandbox.ledger.RequestMarks;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code payments} tool, a provider with native idempotency: charges and refunds honour the
 * {@code Idempotency-Key} header (see {@link NativeIdempotency}); a charge can be looked up by
 * the key it was created with.
 */
public class PaymentsTool {

    /** Tool name in the ledger and in {@code /_faults}. */
    public static final String NAME = "payments";
    /** The header carrying the provider key. */
    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    static final String CHARGE = "charge";
    static final String REFUND = "refund";

    private final NativeIdempotency idempotency;
    private final PaymentRecords records;

    public PaymentsTool(NativeIdempotency idempotency, PaymentRecords records) {
        this.idempotency = idempotency;
        this.records = records;
    }

    /** {@code POST /payments/charges}: 201 new, 200 replay, 422 key reused, 400 bad body. */
    public Response charge(Request request) {
        ObjectNode body = Json.readObject(request.body());
        long amount = Fields.positiveInteger(body, "amount");
        String currency = Fields.currency(body, "currency");
        RequestMarks marks = RequestMarks.of(request.scope(), request.fence(), body);
        return idempotency.execute(CHARGE, request.header(IDEMPOTENCY_KEY), body, marks, "ch_",
                id -> records.insertCharge(id, amount, currency), this::storedCharge);
    }

    /**
     * {@code POST /payments/charges/validate}: the charge's dry run. Checks the body exactly as {@link #charge}
     * does — 200 {@code {"valid": true, "amount", "currency"}} or the same 400 — and has no effect: nothing is
     * written, nothing enters the ledger, the idempotency key is not consumed.
     */
    public Response validateCharge(Request request) {
        ObjectNode body = Json.readObject(request.body());
        long amount = Fields.positiveInteger(body, "amount");
        String currency = Fields.currency(body, "currency");
        return Response.json(200, Json.object().put("valid", true).put("amount", amount).put("currency", currency));
    }

    /** {@code GET /payments/charges?idempotency_key=K}: 200 the charge or 404. */
    public Response findCharge(Request request) {
        String key = request.requiredQuery("idempotency_key");
        return records.findChargeByKey(CHARGE, key)
                .map(charge -> Response.json(200, charge))
                .orElseThrow(HttpProblem::notFound);
    }

    /**
     * {@code POST /payments/refunds}: refunds a whole charge once. 201 new, 200 replay, 422 key
     * reused, 404 unknown charge, 400 bad body or a charge already refunded under another key.
     */
    public Response refund(Request request) {
        ObjectNode body = Json.readObject(request.body());
        String chargeId = Fields.requiredString(body, "charge");
        if (records.findCharge(chargeId).isEmpty()) {
            throw HttpProblem.notFound();
        }
        RequestMarks marks = RequestMarks.of(request.scope(), request.fence(), body);
        return idempotency.execute(REFUND, request.header(IDEMPOTENCY_KEY), body, marks, "re_",
                id -> refundOnce(id, chargeId), this::storedRefund);
    }

    private ObjectNode refundOnce(String refundId, String chargeId) {
        records.lockCharge(chargeId);
        records.refundOfCharge(chargeId).ifPresent(existing -> {
            throw HttpProblem.of(400, "charge_already_refunded",
                    "charge " + chargeId + " was already refunded by " + existing);
        });
        return records.insertRefund(refundId, chargeId);
    }

    private JsonNode storedCharge(String id) {
        return records.findCharge(id).orElseThrow(() -> new IllegalStateException("lost charge " + id));
    }

    private JsonNode storedRefund(String id) {
        return records.findRefund(id).orElseThrow(() -> new IllegalStateException("lost refund " + id));
    }
}
