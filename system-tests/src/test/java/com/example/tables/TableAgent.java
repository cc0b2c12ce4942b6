package com.example.tables;

import dev.toolonce.agent.call.LocalCalls;
import dev.toolonce.springai.EffectivelyOnce;
import dev.toolonce.springai.ToolOnceToolContext;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.stereotype.Service;

/** A Spring AI agent whose own booking tool runs effectively once (README, "Your own tool methods"). */
@Service
public class TableAgent {
    private final ChatClient chat;

    public TableAgent(ChatClient.Builder chat, LocalCalls localCalls) {
        // the application's own @Tool methods, each call claimed in the agent schema before the method runs
        this.chat = chat.defaultToolCallbacks(EffectivelyOnce.tools(localCalls, new Tables())).build();
    }

    public String answer(String tenant, String conversationId, int turn, String userText) {
        return chat.prompt().user(userText)
                .toolContext(ToolOnceToolContext.turn(tenant, conversationId, Integer.toString(turn)))
                .call().content();
    }

    static class Tables {
        @Tool(description = "Books a table at a restaurant")
        String bookTable(String restaurant, int seats, ToolContext context) {
            // the call's key: hand it to a booking API that honours idempotency keys and the effect is exactly once
            String key = (String) context.getContext().get(EffectivelyOnce.KEY);
            return "{\"booking\": \"" + restaurant + "/" + seats + "/" + key.substring(3, 11) + "\"}";
        }
    }
}
