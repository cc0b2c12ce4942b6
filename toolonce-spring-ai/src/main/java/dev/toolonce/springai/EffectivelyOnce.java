package dev.toolonce.springai;

import dev.toolonce.agent.call.LocalCalls;
import dev.toolonce.agent.call.TurnKeys;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.support.ToolCallbacks;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.DefaultToolDefinition;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.metadata.ToolMetadata;

/**
 * An application's own Spring AI tool (an {@code @Tool} method, or any {@link ToolCallback}) made to run effectively
 * once (docs/agent-calls.md §8): each call the model asks for is keyed by its turn, as ToolOnce's catalogue tools are
 * ({@link ToolOnceToolContext}), and run through {@link LocalCalls}: at most once per key, or held for review when the
 * process died mid-call. A method that takes a {@link ToolContext} finds the call's key under {@link #KEY}, to hand to
 * a provider that honours idempotency keys: then the effect is exactly once.
 *
 * <pre>{@code
 * ToolCallback[] tools = EffectivelyOnce.tools(localCalls, new BookingTools());
 * chat.prompt().user(text).toolCallbacks(tools)
 *     .toolContext(ToolOnceToolContext.turn(tenant, conversationId, turnId)).call();
 * }</pre>
 */
public final class EffectivelyOnce implements ToolCallback {
    /** The tool-context entry that holds the call's idempotency key, for the method. */
    public static final String KEY = "toolonce.key";

    private final ToolCallback method;
    private final LocalCalls calls;
    private final ToolDefinition definition;

    public EffectivelyOnce(ToolCallback method, LocalCalls calls) {
        this.method = method;
        this.calls = calls;
        ToolDefinition d = method.getToolDefinition();
        this.definition = DefaultToolDefinition.builder().name(d.name())
                .description(d.description() + " (runs at most once per call: a re-run of this turn does not repeat "
                        + "it; a second identical call is a new one)")
                .inputSchema(d.inputSchema()).build();
    }

    /** The {@code @Tool} methods of {@code toolObjects}, each run effectively once. */
    public static ToolCallback[] tools(LocalCalls calls, Object... toolObjects) {
        return wrap(calls, ToolCallbacks.from(toolObjects));
    }

    /** Each of {@code methods} run effectively once. */
    public static ToolCallback[] wrap(LocalCalls calls, ToolCallback... methods) {
        return Arrays.stream(methods).map(m -> (ToolCallback) new EffectivelyOnce(m, calls))
                .toArray(ToolCallback[]::new);
    }

    @Override
    public ToolDefinition getToolDefinition() {
        return definition;
    }

    @Override
    public ToolMetadata getToolMetadata() {
        return method.getToolMetadata();
    }

    @Override
    public String call(String toolInput) {
        return call(toolInput, null);
    }

    @Override
    public String call(String toolInput, ToolContext toolContext) {
        TurnKeys turn = ToolOnceToolContext.turnOf(toolContext);
        if (turn == null) {
            return ToolOnceToolContext.noTurn("the tool was not run");
        }
        return calls.call(definition.name(), toolInput, turn, key -> method.call(toolInput, withKey(toolContext, key)));
    }

    private static ToolContext withKey(ToolContext context, String key) {
        Map<String, Object> entries = new HashMap<>(context.getContext());
        entries.put(KEY, key);
        return new ToolContext(entries);
    }
}
