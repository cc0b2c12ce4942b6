package com.example.payments;

import dev.toolonce.springai.ToolOnceToolContext;
import dev.toolonce.springai.ToolOnceTools;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.stereotype.Service;

/** A Spring AI agent whose payment tool runs effectively once (README, "Tools for Spring AI agents"). */
@Service
public class PaymentAgent {
    private final ChatClient chat;

    public PaymentAgent(ChatClient.Builder chat, ToolOnceTools tools) {
        // the executor's catalogue (toolonce.spring-ai.*) as tools: every call the model asks for goes through ToolOnce
        this.chat = chat.defaultToolCallbacks(tools).build();
    }

    /**
     * One turn of a conversation. {@code turn} is the same when this turn is run again (after a crash, or a retried
     * error) and new for every later turn, e.g. the number of user messages so far: a re-run gets the stored answers,
     * a later turn that asks for the same charge again makes a new one.
     */
    public String answer(String tenant, String conversationId, int turn, String userText) {
        return chat.prompt().user(userText)
                .toolContext(ToolOnceToolContext.turn(tenant, conversationId, Integer.toString(turn)))
                .call().content();
    }
}
