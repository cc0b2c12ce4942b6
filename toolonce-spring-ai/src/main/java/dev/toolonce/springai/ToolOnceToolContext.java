package dev.toolonce.springai;

import dev.toolonce.agent.call.ConversationKeys;
import dev.toolonce.agent.call.ModelCalls;
import dev.toolonce.agent.call.TurnKeys;
import java.util.Map;
import org.springframework.ai.chat.model.ToolContext;

/**
 * What a {@code ChatClient} call passes as its tool context so that ToolOnce's tools can key their calls
 * (docs/agent-calls.md §3–§4): make one for every attempt at a turn, e.g.
 * {@code chatClient.prompt().user(text).toolContext(ToolOnceToolContext.turn(tenant, conversationId, turnId)).call()}.
 */
public final class ToolOnceToolContext {
    /** The entry of the tool context that holds the {@link TurnKeys}. */
    public static final String TURN = "toolonce.turn";

    private ToolOnceToolContext() {
    }

    /**
     * The tool context of an attempt at turn {@code turnId} of a conversation: the same turn id whenever the same turn is
     * run again (after a crash or a retried error), another for every later turn.
     */
    public static Map<String, Object> turn(String tenantId, String conversationId, String turnId) {
        return Map.of(TURN, TurnKeys.ofTurn(tenantId, conversationId, turnId));
    }

    /** The tool context of a turn of a conversation whose memory holds the answers of {@code answered}. */
    public static Map<String, Object> resume(String tenantId, String conversationId,
                                             Iterable<ConversationKeys.Call> answered) {
        return Map.of(TURN, TurnKeys.resume(tenantId, conversationId, answered));
    }

    /**
     * What a ToolOnce tool answers when called without a turn: no key could survive a re-run, so nothing was done
     * ({@code notDone} says what).
     */
    static String noTurn(String notDone) {
        return ModelCalls.refusal("NO_TURN", "the application did not pass ToolOnceToolContext.turn(...) as the tool "
                + "context of this ChatClient call; " + notDone);
    }

    /** The turn a tool context carries; null when it carries none. */
    static TurnKeys turnOf(ToolContext context) {
        if (context == null || context.getContext() == null) {
            return null;
        }
        return context.getContext().get(TURN) instanceof TurnKeys t ? t : null;
    }
}
