package com.example.mcp;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;

/** An MCP client that charges once through ToolOnce's gateway (README, "Tools over MCP"). */
public final class ChargeOverMcp {
    public static void main(String[] args) {
        String token = System.getenv("TOOLONCE_TOKEN"); // an operator token of the tenant
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://127.0.0.1:18085")
                        .endpoint("/mcp").requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
                        .build())
                .requestTimeout(Duration.ofSeconds(60)).build();
        client.initialize();

        McpSchema.CallToolRequest charge = McpSchema.CallToolRequest.builder().name("payments_charge")
                .arguments(Map.of("amount", 1250, "currency", "EUR"))
                // the same key on a retry is the same call: the stored answer, never a second charge
                .meta(Map.of("dev.toolonce/idempotency-key", "order-7:charge"))
                .build();
        McpSchema.CallToolResult result = client.callTool(charge);
        System.out.println(((McpSchema.TextContent) result.content().get(0)).text());
        client.closeGracefully();
    }
}
