package dev.toolonce.springai;

import dev.toolonce.agent.call.CatalogueTool;
import dev.toolonce.agent.call.ModelCalls;
import java.util.List;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;

/**
 * The catalogue's operations (or a chosen subset) as Spring AI tools: a {@link ToolCallbackProvider} that a {@code
 * ChatClient} takes with {@code .toolCallbacks(provider)} or {@code defaultToolCallbacks(provider)}.
 */
public final class ToolOnceTools implements ToolCallbackProvider {
    private final ToolCallback[] callbacks;

    public ToolOnceTools(List<CatalogueTool> tools, ModelCalls calls) {
        this.callbacks = tools.stream().map(t -> new ToolOnceToolCallback(t, calls)).toArray(ToolCallback[]::new);
    }

    @Override
    public ToolCallback[] getToolCallbacks() {
        return callbacks.clone();
    }
}
