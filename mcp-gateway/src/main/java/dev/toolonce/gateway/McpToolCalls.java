package dev.toolonce.gateway;

import dev.toolonce.agent.call.CallKeys;
import dev.toolonce.agent.call.CallOutcome;
import dev.toolonce.agent.call.CatalogueTool;
import dev.toolonce.agent.call.ModelCalls;
import dev.toolonce.schemas.ArgumentsSchema;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.security.Role;
import dev.toolonce.security.TenantScope;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.access.hierarchicalroles.RoleHierarchyImpl;
import org.springframework.security.core.Authentication;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The catalogue's operations as MCP tools (docs/agent-calls.md §6). Each {@code tools/call}:
 * <ol>
 *   <li>needs a caller of role {@code operator} (or {@code admin}) for the call's tenant: {@code _meta
 *       dev.toolonce/tenant}, or the caller's only tenant;</li>
 *   <li>checks the arguments against the operation's schema, and refuses them naming each field before anything is
 *       written;</li>
 *   <li>takes its key from {@code _meta dev.toolonce/idempotency-key}, or derives it (docs/agent-calls.md §1) from
 *       {@code _meta dev.toolonce/conversation-id} and {@code dev.toolonce/occurrence} (default 1); with neither it is
 *       refused, since no key could survive the client's retry;</li>
 *   <li>is an awaitable call, answered with the result, the refusal or a pending answer, and sends a progress
 *       notification every {@code progress-every} while it waits when the client gave a progress token.</li>
 * </ol>
 * Annotations are derived from the catalogue, never claimed: {@code idempotentHint} only where ToolOnce guarantees
 * exactly one effect, {@code destructiveHint} from the YAML, {@code readOnlyHint} false, {@code openWorldHint} true.
 */
final class McpToolCalls {
    static final String META_TENANT = "dev.toolonce/tenant";
    static final String META_KEY = "dev.toolonce/idempotency-key";
    static final String META_CONVERSATION = "dev.toolonce/conversation-id";
    static final String META_OCCURRENCE = "dev.toolonce/occurrence";
    /** The transport context entry holding the caller's {@link Authentication}. */
    static final String AUTHENTICATION = "dev.toolonce/authentication";

    private static final Logger log = LoggerFactory.getLogger(McpToolCalls.class);
    private static final RoleHierarchy ROLES = RoleHierarchyImpl.fromHierarchy(Role.HIERARCHY);
    private final ModelCallsByTenant calls;
    private final Duration progressEvery;
    private final ObjectMapper mapper = JsonMapper.builder().build();

    /** The {@link ModelCalls} of a tenant. */
    interface ModelCallsByTenant {
        ModelCalls of(String tenantId);
    }

    McpToolCalls(ModelCallsByTenant calls, Duration progressEvery) {
        this.calls = calls;
        this.progressEvery = progressEvery;
    }

    McpServerFeatures.SyncToolSpecification specification(CatalogueTool tool) {
        McpSchema.Tool mcpTool = McpSchema.Tool.builder().name(tool.functionName()).title(tool.tool() + " "
                        + tool.operation()).description(tool.description())
                .inputSchema(mapper.convertValue(tool.inputSchema(), Map.class))
                .annotations(new McpSchema.ToolAnnotations(tool.tool() + " " + tool.operation(), false,
                        tool.destructive(), tool.exactlyOnce(), true, null))
                .meta(Map.of("dev.toolonce/guarantee", tool.guarantee())).build();
        return McpServerFeatures.SyncToolSpecification.builder().tool(mcpTool)
                .callHandler((exchange, request) -> call(tool, exchange, request)).build();
    }

    McpSchema.CallToolResult call(CatalogueTool tool, McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
        Map<String, Object> meta = request.meta() == null ? Map.of() : request.meta();
        Authentication caller = exchange.transportContext() == null ? null
                : (Authentication) exchange.transportContext().get(AUTHENTICATION);
        if (caller == null || !caller.isAuthenticated()) {
            return refused("UNAUTHENTICATED", "no credential");
        }
        if (!mayCall(caller)) {
            return refused("FORBIDDEN", "calling a tool needs the role operator");
        }
        TenantScope scope = TenantScope.of(caller);
        String tenant = meta.get(META_TENANT) instanceof String t ? t
                : scope.all() || scope.ids().size() != 1 ? null : scope.ids().iterator().next();
        if (tenant == null) {
            return refused("NO_TENANT", "name the tenant in _meta " + META_TENANT + " (the credential has several)");
        }
        if (!scope.includes(tenant)) {
            return refused("FORBIDDEN", "the credential may not act for tenant " + tenant);
        }
        ModelCalls modelCalls = calls.of(tenant);
        JsonNode args = mapper.valueToTree(request.arguments() == null ? Map.of() : request.arguments());
        var violations = modelCalls.violations(tool, args);
        if (!violations.isEmpty()) {
            return refused("INVALID_ARGUMENTS", ArgumentsSchema.describe(tool.tool(), tool.operation(),
                    violations));
        }
        String conversation = meta.get(META_CONVERSATION) instanceof String c && !c.isEmpty() ? c : null;
        String key;
        try {
            if (meta.get(META_KEY) instanceof String k) {
                key = CallKeys.business(tenant, tool.tool(), tool.operation(), k);
            } else if (conversation != null) {
                int occurrence = meta.get(META_OCCURRENCE) instanceof Number n ? n.intValue() : 1;
                if (occurrence < 1) {
                    return refused("INVALID_ARGUMENTS", "_meta " + META_OCCURRENCE + " must be 1 or more");
                }
                key = CallKeys.derived(tenant, conversation, tool.tool(), tool.operation(), args, occurrence);
            } else {
                return refused("NO_KEY", "give _meta " + META_KEY + ", or " + META_CONVERSATION + " (and "
                        + META_OCCURRENCE + ") to derive one: a call without a key cannot be made once");
            }
        } catch (IllegalArgumentException e) { // InvalidArgumentsException too: a malformed key or number
            return refused("INVALID_ARGUMENTS", e.getMessage());
        }
        Object progressToken = meta.get("progressToken");
        AtomicInteger ticks = new AtomicInteger();
        CallOutcome outcome;
        try {
            outcome = modelCalls.call(tool, args, conversation == null ? "mcp:" + caller.getName() : conversation, key,
                    progressEvery, () -> {
                        if (progressToken != null) {
                            exchange.progressNotification(new McpSchema.ProgressNotification(progressToken,
                                    ticks.incrementAndGet(), null, "waiting for the tool's answer; it will not be repeated"));
                        }
                    });
        } catch (IllegalArgumentException e) {
            return refused("INVALID_ARGUMENTS", e.getMessage());
        }
        ObjectNode answer = ModelCalls.answerNode(outcome);
        boolean error = outcome instanceof CallOutcome.Answered a && a.status() != ResultStatus.COMMITTED;
        log.info("tools/call {} for {} ({}): {}", tool.functionName(), tenant, caller.getName(),
                outcome instanceof CallOutcome.Answered a ? a.status() + (a.replayed() ? " replayed" : "")
                        : "pending");
        return result(answer, error);
    }

    /** The answer as text and as {@code structuredContent}, as MCP asks of a tool with structured output. */
    private McpSchema.CallToolResult result(ObjectNode answer, boolean error) {
        return McpSchema.CallToolResult.builder().addTextContent(answer.toString())
                .structuredContent(mapper.convertValue(answer, Map.class)).isError(error).build();
    }

    private McpSchema.CallToolResult refused(String code, String message) {
        return result(ModelCalls.refusalNode(code, message), true);
    }

    /** Operator or above, by the role hierarchy every door uses ({@link Role#HIERARCHY}). */
    private static boolean mayCall(Authentication caller) {
        return ROLES.getReachableGrantedAuthorities(caller.getAuthorities()).stream()
                .anyMatch(a -> Role.OPERATOR.authority().equals(a.getAuthority()));
    }
}
