package dev.toolonce.springai;

import dev.toolonce.agent.call.CatalogueTool;
import dev.toolonce.agent.call.ModelCalls;
import dev.toolonce.agent.call.TurnKeys;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.DefaultToolDefinition;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * A tool of the executor's catalogue as a Spring AI {@link ToolCallback} (docs/agent-calls.md §4): each call the model
 * asks for is an awaitable effectively-once call ({@link ModelCalls}) under the key its turn gives it. The turn comes
 * from the {@link ToolContext} of the {@code ChatClient} call ({@link ToolOnceToolContext}); without one the call is
 * refused, since no key could survive a re-run of the turn. The model reads the result, a refusal with its code, or a
 * pending answer.
 */
public final class ToolOnceToolCallback implements ToolCallback {
    private final CatalogueTool tool;
    private final ModelCalls calls;
    private final ToolDefinition definition;

    public ToolOnceToolCallback(CatalogueTool tool, ModelCalls calls) {
        this.tool = tool;
        this.calls = calls;
        this.definition = DefaultToolDefinition.builder().name(tool.functionName())
                .description(tool.description() + " (through ToolOnce: "
                        + (tool.exactlyOnce() ? "exactly one effect" : "at most one effect, or a person reviews it")
                        + "; a re-run of this turn does not repeat it, a second identical call is a new one)")
                .inputSchema(tool.inputSchema().toString()).build();
    }

    @Override
    public ToolDefinition getToolDefinition() {
        return definition;
    }

    /** The catalogue entry behind this callback. */
    public CatalogueTool tool() {
        return tool;
    }

    @Override
    public String call(String toolInput) {
        return call(toolInput, null);
    }

    @Override
    public String call(String toolInput, ToolContext toolContext) {
        TurnKeys turn = ToolOnceToolContext.turnOf(toolContext);
        if (turn == null) {
            return ToolOnceToolContext.noTurn("nothing was sent");
        }
        return calls.call(tool, toolInput, turn);
    }
}
