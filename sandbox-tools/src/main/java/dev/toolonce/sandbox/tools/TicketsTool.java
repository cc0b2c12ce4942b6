package dev.toolonce.sandbox.tools;

import dev.toolonce.sandbox.http.HttpProblem;
import dev.toolonce.sandbox.http.Json;
import dev.toolonce.sandbox.http.Request;
import dev.toolonce.sandbox.http.Response;
import dev.toolonce.sandbox.ledger.EffectIdentity;
import dev.toolonce.sandbox.ledger.EffectLedger;
import dev.toolonce.sandbox.ledger.RequestMarks;
import java.util.Optional;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code tickets} tool, a provider with a unique reference: a second create with the same
 * {@code external_reference} is refused with 409 and the existing ticket. The ledger upsert
 * row-locks the reference first, so concurrent creates with one reference make one ticket.
 */
public class TicketsTool {

    /** Tool name in the ledger and in {@code /_faults}. */
    public static final String NAME = "tickets";

    private final EffectLedger ledger;
    private final TicketRecords records;
    private final ObjectIds ids;
    private final TransactionTemplate tx;

    public TicketsTool(EffectLedger ledger, TicketRecords records, ObjectIds ids, TransactionTemplate tx) {
        this.ledger = ledger;
        this.records = records;
        this.ids = ids;
        this.tx = tx;
    }

    /** {@code POST /tickets}: 201 created, 409 with the existing ticket, 400 bad body. */
    public Response create(Request request) {
        ObjectNode body = Json.readObject(request.body());
        String reference = Fields.requiredString(body, "external_reference");
        String title = Fields.optionalString(body, "title");
        RequestMarks marks = RequestMarks.of(request.scope(), request.fence(), body);
        EffectIdentity identity = EffectIdentity.byReference(NAME, "create", reference);
        return tx.execute(status -> {
            ledger.recordRequest(identity, marks);
            Optional<ObjectNode> existing = records.findByReference(reference);
            if (existing.isPresent()) {
                return Response.afterLedger(409, existing.get());
            }
            String id = ids.next("tk_");
            ObjectNode ticket = records.insert(id, reference, title);
            ledger.recordApplied(identity, id);
            return Response.afterLedger(201, ticket);
        });
    }

    /** {@code GET /tickets?external_reference=R}: 200 the ticket or 404. */
    public Response find(Request request) {
        String reference = request.requiredQuery("external_reference");
        return records.findByReference(reference)
                .map(ticket -> Response.json(200, ticket))
                .orElseThrow(HttpProblem::notFound);
    }

    /** {@code POST /tickets/{id}/cancel}: 200 the cancelled ticket (idempotent), 404 unknown id. */
    public Response cancel(Request request) {
        String id = request.pathParam("id");
        ObjectNode body = request.body().length == 0 ? null : Json.readObject(request.body());
        RequestMarks marks = RequestMarks.of(request.scope(), request.fence(), body);
        EffectIdentity identity = EffectIdentity.byReference(NAME, "cancel", id);
        return tx.execute(status -> {
            ObjectNode ticket = records.lock(id).orElseThrow(HttpProblem::notFound);
            ledger.recordRequest(identity, marks);
            if (records.cancel(id)) {
                ledger.recordApplied(identity, id);
            }
            return Response.afterLedger(200, ticket.put("status", "cancelled"));
        });
    }
}
