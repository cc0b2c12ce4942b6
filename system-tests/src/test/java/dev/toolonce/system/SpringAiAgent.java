package dev.toolonce.system;

import dev.toolonce.agent.call.Catalogue;
import dev.toolonce.agent.call.ModelCalls;
import dev.toolonce.agent.call.ToolCalls;
import dev.toolonce.agent.call.LocalCalls;
import dev.toolonce.springai.EffectivelyOnce;
import dev.toolonce.springai.ToolOnceToolContext;
import dev.toolonce.springai.ToolOnceTools;
import dev.toolonce.testsupport.TestStack;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * An agent application as its own process (SpringAiAgentIT kills it): a Spring AI {@link ChatClient} over a scripted
 * {@link ChatModel} that asks for one charge of 12.50 EUR, whose payment tool is the executor's {@code payments/charge}
 * through ToolOnce ({@link ToolOnceTools}). Runs one turn of a conversation and writes its transcript to a file. With
 * {@code halt}, the model, once it is handed the tool's answer, writes it down and hangs there: the process is killed
 * after the tool was called and before the model could use the answer.
 *
 * <p>Arguments: jdbc-url executor-url viewer-token tenant conversation turn-ids op-id halt|complete transcript-file
 * [effects-file], where turn-ids is a comma-separated list of the turns to run, one after the other (each asks for the
 * same charge). With an effects file the model asks instead for the application's own {@code @Tool} method
 * {@code bookTable} ({@link TableBookings}), made effectively once by {@link EffectivelyOnce}; mode
 * {@code halt-in-method} hangs inside the method, after its effect and before it returns.
 */
public final class SpringAiAgent {
    private SpringAiAgent() {
    }

    public static void main(String[] args) throws Exception {
        String jdbcUrl = args[0];
        URI executor = URI.create(args[1]);
        String token = args[2];
        String tenant = args[3];
        String conversation = args[4];
        String[] turns = args[5].split(",");
        String opId = args[6];
        boolean halt = "halt".equals(args[7]);
        Path transcript = Path.of(args[8]);

        ToolCalls calls = ScriptedAgents.toolCalls(jdbcUrl, "/agents/spring-ai");
        ToolCallback[] tools;
        String toolName;
        String arguments;
        if (args.length > 9) {
            LocalCalls local = new LocalCalls(TestStack.pooled(jdbcUrl), "agent", tenant, Duration.ofSeconds(5));
            tools = EffectivelyOnce.tools(local, new TableBookings(Path.of(args[9]),
                    "halt-in-method".equals(args[7]), transcript));
            toolName = "bookTable";
            arguments = "{\"restaurant\": \"Chez Marie\", \"seats\": 2, \"note\": \"" + opId + "\"}";
        } else {
            tools = new ToolOnceTools(Catalogue.fetch(executor, token, List.of("payments/charge")),
                    new ModelCalls(calls, tenant, Duration.ofSeconds(60))).getToolCallbacks();
            toolName = "payments_charge";
            arguments = "{\"amount\": 1250, \"currency\": \"EUR\", \"opId\": \"" + opId + "\"}";
        }

        ChatClient chat = ChatClient.builder(new ScriptedModel(toolName, arguments, halt, transcript)).build();
        for (String turn : turns) {
            ScriptedAgents.write(transcript, "USER: " + toolName + " please (turn " + turn + ")");
            String answer = chat.prompt().user(toolName + " please").toolCallbacks(tools)
                    .toolContext(ToolOnceToolContext.turn(tenant, conversation, turn)).call().content();
            ScriptedAgents.write(transcript, "ANSWER: " + answer);
        }
        calls.close();
        System.exit(0);
    }

    /**
     * The application's own tool: books a table, writing the booking to a file (the effect the test counts), and
     * answers the booking's id, made from the call's key when ToolOnce gives one.
     */
    public record TableBookings(Path effects, boolean haltInMethod, Path transcript) {
        @Tool(description = "Books a table at a restaurant")
        public String bookTable(@ToolParam(description = "the restaurant") String restaurant,
                                @ToolParam(description = "how many seats") int seats,
                                @ToolParam(description = "a note for the restaurant") String note,
                                ToolContext context) {
            Object key = context.getContext().get(EffectivelyOnce.KEY);
            String booking = "bk_" + Integer.toHexString(String.valueOf(key).hashCode()) + "_" + System.nanoTime();
            ScriptedAgents.writeSynced(effects, "BOOKED " + booking + " " + restaurant + " x" + seats + " key " + key);
            if (haltInMethod) {
                ScriptedAgents.write(transcript, "BOOKED, HALTED inside the method");
                ScriptedAgents.halt(transcript);
            }
            return "{\"externalObjectId\": \"" + booking + "\", \"restaurant\": \"" + restaurant + "\"}";
        }
    }

    /**
     * A model that asks for the charge when the user speaks, and reports the tool's answer when it gets one; each of its
     * tool calls has a new id, as a provider's would.
     */
    private record ScriptedModel(String toolName, String arguments, boolean halt, Path transcript) implements ChatModel {
        @Override
        public ChatResponse call(Prompt prompt) {
            List<Message> messages = prompt.getInstructions();
            Message last = messages.get(messages.size() - 1);
            if (last instanceof ToolResponseMessage tool) {
                String data = tool.getResponses().get(0).responseData();
                ScriptedAgents.write(transcript, "TOOL ANSWERED: " + data);
                if (halt) {
                    ScriptedAgents.halt(transcript);
                }
                return new ChatResponse(List.of(new Generation(new AssistantMessage("The tool answered: " + data))));
            }
            String id = "call_" + UUID.randomUUID();
            ScriptedAgents.write(transcript, "MODEL ASKS: " + toolName + " " + arguments + " (tool call id " + id + ")");
            return new ChatResponse(List.of(new Generation(AssistantMessage.builder().content("")
                    .toolCalls(List.of(new AssistantMessage.ToolCall(id, "function", toolName, arguments)))
                    .build())));
        }

        /** Options that can carry tools: ChatClient's tool loop runs only on a prompt whose options can. */
        @Override
        public ChatOptions getOptions() {
            return ToolCallingChatOptions.builder().build();
        }
    }
}
