package dev.toolonce.agent.call;

import tools.jackson.databind.JsonNode;

/**
 * The keys of one attempt at one turn of a conversation (docs/agent-calls.md §3): which conversation the calls belong
 * to, and the key of each call the model asks for. Made anew for every attempt at a turn, so that a turn run again
 * (after a crash, or after an error the application retries) gives its calls the keys they had.
 *
 * <ul>
 *   <li>{@link #ofTurn}: keys derived from the conversation, a turn id and the call's occurrence within the turn. The
 *       turn id must be the same whenever the same turn is run again and differ for every later turn (the number of
 *       user messages so far, or the id of the user message the turn answers).</li>
 *   <li>{@link #resume}: keys derived from the conversation and the call's occurrence in the whole conversation, counting
 *       the calls whose answers the conversation's memory holds ({@link ConversationKeys}); for memories that keep tool
 *       answers.</li>
 * </ul>
 */
public final class TurnKeys {
    private final String conversationId;
    private final ConversationKeys keys;

    private TurnKeys(String conversationId, ConversationKeys keys) {
        if (conversationId == null || conversationId.isEmpty()) {
            throw new IllegalArgumentException("conversationId must not be empty");
        }
        this.conversationId = conversationId;
        this.keys = keys;
    }

    /** Keys for an attempt at turn {@code turnId} of a conversation. */
    public static TurnKeys ofTurn(String tenantId, String conversationId, String turnId) {
        if (turnId == null || turnId.isEmpty()) {
            throw new IllegalArgumentException("turnId must not be empty");
        }
        return new TurnKeys(conversationId, ConversationKeys.start(tenantId, conversationId + "#turn:" + turnId));
    }

    /** Keys for a turn of a conversation whose memory holds the answers of {@code answered}. */
    public static TurnKeys resume(String tenantId, String conversationId, Iterable<ConversationKeys.Call> answered) {
        return new TurnKeys(conversationId, ConversationKeys.resume(tenantId, conversationId, answered));
    }

    /** The conversation: the {@code taskId} of its calls. */
    public String conversationId() {
        return conversationId;
    }

    /** The key of the next call the model asks for in this attempt. */
    public String next(String tool, String operation, JsonNode arguments) {
        return keys.next(tool, operation, arguments);
    }
}
