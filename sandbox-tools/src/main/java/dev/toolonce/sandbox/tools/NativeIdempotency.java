package dev.toolonce.sandbox.tools;

import dev.toolonce.sandbox.http.Json;
import dev.toolonce.sandbox.http.Response;
import dev.toolonce.sandbox.ledger.EffectIdentity;
import dev.toolonce.sandbox.ledger.EffectLedger;
import dev.toolonce.sandbox.ledger.RequestMarks;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a provider with native idempotency handles a create, in one transaction: a new key
 * creates (201), the same key within the window and the same body replays the object (200),
 * the same key with another body is refused with {@code idempotency_key_reused} (422), and a
 * request without a key creates every time. The ledger upsert comes first and row-locks the
 * key, so the check and the create are atomic under concurrent requests with one key.
 */
public class NativeIdempotency {

    /** A create step: gets the new object's id, returns its JSON; may throw to refuse. */
    @FunctionalInterface
    public interface Creator {
        ObjectNode create(String newId);
    }

    private final String tool;
    private final Duration window;
    private final EffectLedger ledger;
    private final IdempotencyRecords records;
    private final ObjectIds ids;
    private final TransactionTemplate tx;

    public NativeIdempotency(String tool, Duration window, EffectLedger ledger, IdempotencyRecords records,
                             ObjectIds ids, TransactionTemplate tx) {
        this.tool = tool;
        this.window = window;
        this.ledger = ledger;
        this.records = records;
        this.ids = ids;
        this.tx = tx;
    }

    /**
     * @param key    the {@code Idempotency-Key} header, or null
     * @param prefix prefix of new object ids
     * @param load   loads a stored object by id for a replay
     */
    public Response execute(String operation, String key, ObjectNode body, RequestMarks marks, String prefix,
                            Creator creator, Function<String, JsonNode> load) {
        return tx.execute(status -> key == null
                ? createUnkeyed(operation, marks, prefix, creator)
                : createOrReplay(operation, key, body, marks, prefix, creator, load));
    }

    private Response createUnkeyed(String operation, RequestMarks marks, String prefix, Creator creator) {
        String id = ids.next(prefix);
        EffectIdentity identity = EffectIdentity.byProviderKey(tool, operation, null, id);
        ledger.recordRequest(identity, marks);
        return create(identity, id, creator);
    }

    private Response createOrReplay(String operation, String key, ObjectNode body, RequestMarks marks,
                                    String prefix, Creator creator, Function<String, JsonNode> load) {
        EffectIdentity identity = EffectIdentity.byProviderKey(tool, operation, key, null);
        ledger.recordRequest(identity, marks);
        Optional<IdempotencyRecords.StoredKey> stored =
                records.find(operation, key, body, window).filter(IdempotencyRecords.StoredKey::live);
        if (stored.isPresent()) {
            return replay(stored.get(), load);
        }
        String id = ids.next(prefix);
        records.save(operation, key, body, id);
        return create(identity, id, creator);
    }

    private Response create(EffectIdentity identity, String id, Creator creator) {
        ObjectNode created = creator.create(id);
        ledger.recordApplied(identity, id);
        return Response.afterLedger(201, created);
    }

    private static Response replay(IdempotencyRecords.StoredKey stored, Function<String, JsonNode> load) {
        if (!stored.sameBody()) {
            ObjectNode error = Json.object()
                    .put("error", "idempotency_key_reused")
                    .put("message", "Keys for idempotent requests can only be used with the same parameters"
                            + " they were first used with; this key created " + stored.objectId());
            return Response.afterLedger(422, error);
        }
        return Response.afterLedger(200, load.apply(stored.objectId()));
    }
}
