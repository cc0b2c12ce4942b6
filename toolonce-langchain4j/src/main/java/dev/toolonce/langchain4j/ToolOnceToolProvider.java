package dev.toolonce.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import dev.toolonce.agent.call.CatalogueTool;
import dev.toolonce.agent.call.ConversationKeys;
import dev.toolonce.agent.call.ModelCalls;
import dev.toolonce.agent.call.TurnKeys;
import dev.toolonce.schemas.EventCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The executor's catalogue as a LangChain4j {@link ToolProvider} (docs/agent-calls.md §5): {@code
 * AiServices.builder(…).toolProvider(new ToolOnceToolProvider(tools, modelCalls))}. Each invocation of the AI service
 * is a turn: the provider is asked for its tools once per invocation, and keys that turn's calls by the answers its
 * chat memory already holds ({@link TurnKeys#resume}), so a turn run again after a crash (the memory without the
 * answer) reproduces the keys, while a later call the model makes after seeing an answer gets a new one. The
 * conversation is the memory id.
 */
public final class ToolOnceToolProvider implements ToolProvider {
    private final List<CatalogueTool> tools;
    private final Map<String, CatalogueTool> byName = new HashMap<>();
    private final ModelCalls calls;
    private final EventCodec codec = new EventCodec();

    public ToolOnceToolProvider(List<CatalogueTool> tools, ModelCalls calls) {
        this.tools = List.copyOf(tools);
        this.calls = calls;
        tools.forEach(t -> byName.put(t.functionName(), t));
    }

    @Override
    public ToolProviderResult provideTools(ToolProviderRequest request) {
        Object memoryId = request.chatMemoryId();
        TurnKeys turn = TurnKeys.resume(calls.tenantId(), memoryId == null ? "default" : memoryId.toString(),
                answered(request.messages()));
        ToolProviderResult.Builder result = ToolProviderResult.builder();
        for (CatalogueTool tool : tools) {
            result.add(specification(tool), (call, memory) -> calls.call(tool, call.arguments(), turn));
        }
        return result.build();
    }

    /** The calls of these messages that have an answer among them: the model has seen those. */
    List<ConversationKeys.Call> answered(List<ChatMessage> messages) {
        if (messages == null) {
            return List.of();
        }
        Set<String> answeredIds = new HashSet<>();
        for (ChatMessage m : messages) {
            if (m instanceof ToolExecutionResultMessage r && r.id() != null) {
                answeredIds.add(r.id());
            }
        }
        List<ConversationKeys.Call> out = new ArrayList<>();
        for (ChatMessage m : messages) {
            if (m instanceof AiMessage ai && ai.hasToolExecutionRequests()) {
                for (ToolExecutionRequest r : ai.toolExecutionRequests()) {
                    CatalogueTool tool = byName.get(r.name());
                    if (tool == null || r.id() == null || !answeredIds.contains(r.id())) {
                        continue;
                    }
                    try {
                        JsonNode args = codec.parse((r.arguments() == null || r.arguments().isBlank() ? "{}"
                                : r.arguments()).getBytes(StandardCharsets.UTF_8));
                        out.add(new ConversationKeys.Call(tool.tool(), tool.operation(), args));
                    } catch (IllegalArgumentException unreadable) {
                        // a call whose arguments were not JSON was refused before any key was made: nothing to count
                    }
                }
            }
        }
        return out;
    }

    /** The tool as LangChain4j describes it to a model: each property's own schema kept as written. */
    static ToolSpecification specification(CatalogueTool tool) {
        JsonNode schema = tool.inputSchema();
        JsonObjectSchema.Builder parameters = JsonObjectSchema.builder();
        schema.path("properties").properties().forEach(p ->
                parameters.addProperty(p.getKey(), JsonRawSchema.from(p.getValue().toString())));
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> required.add(r.asString()));
        parameters.required(required);
        if (schema.has("additionalProperties") && schema.get("additionalProperties").isBoolean()) {
            parameters.additionalProperties(schema.get("additionalProperties").asBoolean());
        }
        return ToolSpecification.builder().name(tool.functionName())
                .description(tool.description() + " (through ToolOnce: "
                        + (tool.exactlyOnce() ? "exactly one effect" : "at most one effect, or a person reviews it")
                        + ")")
                .parameters(parameters.build()).build();
    }
}
