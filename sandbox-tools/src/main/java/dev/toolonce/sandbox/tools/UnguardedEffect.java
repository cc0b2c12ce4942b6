package dev.toolonce.sandbox.tools;

import dev.toolonce.sandbox.http.Request;
import dev.toolonce.sandbox.http.Response;
import dev.toolonce.sandbox.ledger.EffectIdentity;
import dev.toolonce.sandbox.ledger.EffectLedger;
import dev.toolonce.sandbox.ledger.RequestMarks;
import java.util.function.Function;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a tool without any deduplication handles a request: it applies it, every time. The
 * ledger groups the applications by the caller's identity (scope header, else body opId), so a
 * duplicate shows as a count above one.
 */
public class UnguardedEffect {

    private final EffectLedger ledger;
    private final ObjectIds ids;
    private final TransactionTemplate tx;

    public UnguardedEffect(EffectLedger ledger, ObjectIds ids, TransactionTemplate tx) {
        this.ledger = ledger;
        this.ids = ids;
        this.tx = tx;
    }

    /**
     * @param prefix prefix of the new object's id
     * @param status the status of the response
     * @param reply  renders the response body from the new object's id
     */
    public Response apply(String tool, String operation, String prefix, Request request, ObjectNode body,
                          int status, Function<String, ObjectNode> reply) {
        RequestMarks marks = RequestMarks.of(request.scope(), request.fence(), body);
        String id = tx.execute(txStatus -> {
            String newId = ids.next(prefix);
            EffectIdentity identity =
                    EffectIdentity.byCallerIdentity(tool, operation, marks.scope(), marks.opId(), newId);
            ledger.recordRequest(identity, marks);
            ledger.recordApplied(identity, newId);
            return newId;
        });
        return Response.afterLedger(status, reply.apply(id));
    }
}
