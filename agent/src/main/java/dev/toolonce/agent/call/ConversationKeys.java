package dev.toolonce.agent.call;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The derived keys ({@link CallKeys#derived}) of one turn of a conversation: made at the start of the turn from the
 * calls whose answers the conversation's memory already holds, it gives each call the model asks for in this turn the
 * key of its occurrence.
 *
 * <p>Why the answered calls, and not every call the memory shows: a framework may store the model's request for a
 * call before the call runs. After a crash between the two, the memory holds the request without its answer, and the
 * re-run turn asks for the same call again. Counting only answered calls gives that call the occurrence it had before
 * the crash, hence the same key, hence the stored result and no second effect. A call whose answer the model has seen
 * and asks for again is a deliberate second call: it is the next occurrence and gets a new key.
 *
 * <p>Identical calls within one turn (the same tool, operation and canonical arguments asked twice in parallel) get
 * consecutive occurrences, in the order {@link #next} is called; being identical, which gets which does not matter.
 * Thread-safe.
 */
public final class ConversationKeys {
    private final String tenantId;
    private final String conversationId;
    /** request hash → how many identical calls the conversation has made, counting this turn's. */
    private final Map<String, Integer> made = new HashMap<>();

    private ConversationKeys(String tenantId, String conversationId) {
        if (conversationId == null || conversationId.isEmpty()) {
            throw new IllegalArgumentException("conversationId must not be empty");
        }
        this.tenantId = tenantId;
        this.conversationId = conversationId;
    }

    /** One call as the conversation's memory shows it. */
    public record Call(String tool, String operation, JsonNode arguments) {
    }

    /**
     * @param answered the calls of the conversation whose answers are in its memory, in any order
     * @throws dev.toolonce.core.call.InvalidArgumentsException as {@link CallKeys#derived} does, for an answered call
     * @throws IllegalArgumentException when the conversation id is empty
     */
    public static ConversationKeys resume(String tenantId, String conversationId, Iterable<Call> answered) {
        ConversationKeys keys = new ConversationKeys(tenantId, conversationId);
        for (Call c : answered) {
            keys.made.merge(CallKeys.requestHash(tenantId, c.tool(), c.operation(), c.arguments()), 1, Integer::sum);
        }
        return keys;
    }

    /** A conversation with no answered call yet. */
    public static ConversationKeys start(String tenantId, String conversationId) {
        return resume(tenantId, conversationId, List.of());
    }

    /**
     * The key of a call the model asks for in this turn: the next occurrence of that identical call.
     *
     * @throws dev.toolonce.core.call.InvalidArgumentsException as {@link CallKeys#derived} does
     */
    public synchronized String next(String tool, String operation, JsonNode arguments) {
        String hash = CallKeys.requestHash(tenantId, tool, operation, arguments);
        int occurrence = made.merge(hash, 1, Integer::sum);
        return CallKeys.derived(conversationId, hash, occurrence);
    }
}
