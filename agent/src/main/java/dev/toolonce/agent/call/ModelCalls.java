package dev.toolonce.agent.call;

import dev.toolonce.core.call.InvalidArgumentsException;
import dev.toolonce.schemas.EventCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where a model's tool call becomes an awaitable call (docs/agent-calls.md §3), for every framework adapter (Spring
 * AI, LangChain4j, the MCP gateway): the arguments as the model wrote them, the key of that call in its turn, one
 * {@link ToolCalls#call(dev.toolonce.schemas.ToolIntent, Duration)}, and the answer as the JSON text the model reads.
 * Thread-safe.
 */
public final class ModelCalls {
    private final ToolCalls calls;
    private final String tenantId;
    private final Duration wait;
    private final EventCodec codec = new EventCodec();

    /**
     * @param calls    the awaitable calls
     * @param tenantId the tenant every call is made for
     * @param wait     how long a call waits for its answer before the model is told it is pending
     */
    public ModelCalls(ToolCalls calls, String tenantId, Duration wait) {
        this.calls = calls;
        this.tenantId = tenantId;
        this.wait = wait;
    }

    public String tenantId() {
        return tenantId;
    }

    /**
     * Makes the call a model asked for, in a turn of a conversation, and answers it as the model should read it.
     * Arguments that are not a JSON object, or that the contract refuses, are answered as a refusal naming the field;
     * nothing is sent then.
     *
     * @param turn the keys of this attempt at the turn ({@link TurnKeys})
     */
    public String call(CatalogueTool tool, String arguments, TurnKeys turn) {
        JsonNode args;
        try {
            args = arguments == null || arguments.isBlank() ? JsonNodeFactory.instance.objectNode()
                    : codec.parse(arguments.getBytes(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return refusal("INVALID_ARGUMENTS", "the arguments are not JSON: " + e.getMessage());
        }
        if (!args.isObject()) {
            return refusal("INVALID_ARGUMENTS", "the arguments must be a JSON object");
        }
        String key;
        try {
            key = turn.next(tool.tool(), tool.operation(), args);
        } catch (InvalidArgumentsException e) {
            return refusal("INVALID_ARGUMENTS", e.getMessage());
        }
        CallOutcome outcome;
        try {
            outcome = calls.call(ToolCalls.intent(tenantId, turn.conversationId(), tool.tool(), tool.operation(), key,
                    args), wait);
        } catch (IllegalArgumentException e) {
            return refusal("INVALID_ARGUMENTS", e.getMessage());
        }
        return answer(outcome);
    }

    /** The JSON text a model reads for an outcome: its status, and the result, the refusal or why it is pending. */
    public String answer(CallOutcome outcome) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        if (outcome instanceof CallOutcome.Answered a) {
            out.put("status", a.status().name());
            if (a.result() != null) {
                out.set("result", a.result());
            }
            if (a.externalObjectId() != null) {
                out.put("externalObjectId", a.externalObjectId());
            }
            if (a.errorCode() != null) {
                out.putObject("error").put("code", a.errorCode()).put("message", a.errorMessage());
            }
            out.put("replayed", a.replayed());
        } else if (outcome instanceof CallOutcome.Pending p) {
            out.put("status", p.status());
            out.put("message", "NEEDS_REVIEW".equals(p.status())
                    ? "The call is held for a person to review; it will not be repeated. Tell the user it is pending review."
                    : "The call was accepted and is still running; it will not be repeated. Tell the user it is pending.");
        }
        out.put("idempotencyKey", outcome.ref().idempotencyKey());
        return out.toString();
    }

    private static String refusal(String code, String message) {
        ObjectNode out = JsonNodeFactory.instance.objectNode().put("status", "REJECTED");
        out.putObject("error").put("code", code).put("message", message);
        return out.toString();
    }
}
