package dev.toolonce.system;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.toolonce.agent.call.Catalogue;
import dev.toolonce.agent.call.ModelCalls;
import dev.toolonce.agent.call.ToolCalls;
import dev.toolonce.langchain4j.ToolOnceToolProvider;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * An agent application as its own process (LangChain4jAgentIT kills it): a LangChain4j {@link AiServices} assistant
 * over a scripted {@link ChatModel} that asks for one charge of 12.50 EUR per user message, with the executor's {@code
 * payments/charge} through ToolOnce ({@link ToolOnceToolProvider}) and an in-memory chat memory (lost with the
 * process). Sends each of its user messages in turn and writes the transcript. With {@code halt}, the model, handed the
 * tool's answer, writes it down and hangs there.
 *
 * <p>Arguments: jdbc-url executor-url viewer-token tenant conversation op-id halt|complete transcript-file messages….
 */
public final class LangChain4jAgent {
    private LangChain4jAgent() {
    }

    interface Assistant {
        String chat(@MemoryId String conversation, @UserMessage String text);
    }

    public static void main(String[] args) {
        String jdbcUrl = args[0];
        URI executor = URI.create(args[1]);
        String token = args[2];
        String tenant = args[3];
        String conversation = args[4];
        String opId = args[5];
        boolean halt = "halt".equals(args[6]);
        Path transcript = Path.of(args[7]);

        ToolCalls calls = ScriptedAgents.toolCalls(jdbcUrl, "/agents/langchain4j");
        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(new ScriptedModel(opId, halt, transcript))
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(50))
                .toolProvider(new ToolOnceToolProvider(Catalogue.fetch(executor, token, List.of("payments/charge")),
                        new ModelCalls(calls, tenant, Duration.ofSeconds(60))))
                .build();
        for (int i = 8; i < args.length; i++) {
            ScriptedAgents.write(transcript, "USER: " + args[i]);
            ScriptedAgents.write(transcript, "ANSWER: " + assistant.chat(conversation, args[i]));
        }
        calls.close();
        System.exit(0);
    }

    /** Asks for the charge when the user speaks; reports the tool's answer; every tool call has a new id. */
    private record ScriptedModel(String opId, boolean halt, Path transcript) implements ChatModel {
        @Override
        public ChatResponse doChat(ChatRequest request) {
            List<ChatMessage> messages = request.messages();
            ChatMessage last = messages.get(messages.size() - 1);
            if (last instanceof ToolExecutionResultMessage tool) {
                ScriptedAgents.write(transcript, "TOOL ANSWERED: " + tool.text());
                if (halt) {
                    ScriptedAgents.halt(transcript);
                }
                return ChatResponse.builder().aiMessage(new AiMessage("Charged: " + tool.text())).build();
            }
            String id = "call_" + UUID.randomUUID();
            String arguments = "{\"amount\": 1250, \"currency\": \"EUR\", \"opId\": \"" + opId + "\"}";
            ScriptedAgents.write(transcript, "MODEL ASKS: payments_charge " + arguments + " (tool call id " + id + ")");
            return ChatResponse.builder().aiMessage(new AiMessage(List.of(ToolExecutionRequest.builder().id(id)
                    .name("payments_charge").arguments(arguments).build()))).build();
        }
    }
}
