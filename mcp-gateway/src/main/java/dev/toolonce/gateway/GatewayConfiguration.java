package dev.toolonce.gateway;

import dev.toolonce.agent.call.Catalogue;
import dev.toolonce.agent.call.CatalogueTool;
import dev.toolonce.agent.call.ModelCalls;
import dev.toolonce.agent.call.ToolCalls;
import dev.toolonce.agent.task.TaskEngine;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * The gateway's wiring: the catalogue read once at start-up, one MCP server over Streamable HTTP at {@value #ENDPOINT}
 * behind the security module's filter chain (bearer API tokens or JWTs, the operator API's identities), and the OAuth
 * protected resource metadata (RFC 9728) that MCP's authorization rules point clients to.
 */
@Configuration(proxyBeanMethods = false)
class GatewayConfiguration {
    static final String ENDPOINT = "/mcp";
    static final String RESOURCE_METADATA = "/.well-known/oauth-protected-resource";
    private static final Logger log = LoggerFactory.getLogger(GatewayConfiguration.class);

    @Bean
    List<CatalogueTool> gatewayTools(GatewayProperties p) throws InterruptedException {
        List<CatalogueTool> tools = Catalogue.fetch(URI.create(p.executorUrl()), p.catalogueToken(), p.tools(),
                p.catalogueWait());
        log.info("offering {} tool(s) over MCP: {}", tools.size(), tools.stream().map(CatalogueTool::functionName).toList());
        return tools;
    }

    @Bean
    HttpServletStreamableServerTransportProvider mcpTransport() {
        return HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(new JacksonMcpJsonMapper(JsonMapper.builder().build()))
                .mcpEndpoint(ENDPOINT)
                // the servlet runs after the security filters, on the request's thread: the caller goes with each call
                .contextExtractor(request -> McpTransportContext.create(
                        SecurityContextHolder.getContext().getAuthentication() == null ? Map.of()
                                : Map.of(McpToolCalls.AUTHENTICATION,
                                        SecurityContextHolder.getContext().getAuthentication())))
                .build();
    }

    @Bean
    ServletRegistrationBean<HttpServletStreamableServerTransportProvider> mcpServlet(
            HttpServletStreamableServerTransportProvider transport) {
        ServletRegistrationBean<HttpServletStreamableServerTransportProvider> servlet =
                new ServletRegistrationBean<>(transport, ENDPOINT, ENDPOINT + "/*");
        servlet.setAsyncSupported(true);
        return servlet;
    }

    @Bean(destroyMethod = "close")
    McpSyncServer mcpServer(HttpServletStreamableServerTransportProvider transport, List<CatalogueTool> gatewayTools,
                            ToolCalls calls, TaskEngine tasks, GatewayProperties p) {
        Map<String, ModelCalls> byTenant = new ConcurrentHashMap<>();
        // the task engine holds the calls of operations marked approval: required until an operator approves them
        McpToolCalls tools = new McpToolCalls(tenant -> byTenant.computeIfAbsent(tenant,
                t -> new ModelCalls(calls, tasks, t, p.answerWait())), p.progressEvery());
        return McpServer.sync(transport).serverInfo("toolonce-mcp-gateway", "0.1.0")
                // the gateway checks arguments itself and answers as every ToolOnce door does: INVALID_ARGUMENTS naming
                // each field, as a tool error the model can act on
                .validateToolInputs(false)
                .instructions("Tools through ToolOnce: each call has exactly one effect or goes to review. Give "
                        + "_meta dev.toolonce/idempotency-key (or dev.toolonce/conversation-id) so a retry is the "
                        + "same call.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(gatewayTools.stream().map(tools::specification).toList())
                .build();
    }

    /**
     * RFC 9728 protected resource metadata, open to anyone (MCP clients read it to learn where to get a token). Served by
     * a filter ahead of Spring Security's: a filter chain of the gateway's own would make the security module's chain,
     * which guards everything else, back off.
     */
    @Bean
    FilterRegistrationBean<OncePerRequestFilter> resourceMetadata(GatewayProperties p) {
        JsonMapper json = JsonMapper.builder().build();
        FilterRegistrationBean<OncePerRequestFilter> filter = new FilterRegistrationBean<>(new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws IOException {
                if (!"GET".equals(request.getMethod())) {
                    response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
                    return;
                }
                Map<String, Object> m = new java.util.LinkedHashMap<>();
                m.put("resource", base(request) + ENDPOINT);
                m.put("authorization_servers", p.authorizationServers());
                m.put("bearer_methods_supported", List.of("header"));
                m.put("resource_documentation", "docs/agent-calls.md §6: ToolOnce API tokens, or JWTs of the issuers above");
                response.setContentType("application/json");
                response.getWriter().write(json.writeValueAsString(m));
            }
        });
        filter.addUrlPatterns(RESOURCE_METADATA);
        filter.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return filter;
    }

    /**
     * MCP's authorization rules: a 401 names the resource metadata in {@code WWW-Authenticate}. A request to the MCP
     * endpoint without a credential is always refused, so the header is set before the security filters run.
     */
    @Bean
    FilterRegistrationBean<OncePerRequestFilter> resourceMetadataHeader() {
        FilterRegistrationBean<OncePerRequestFilter> filter = new FilterRegistrationBean<>(new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                if (request.getHeader("Authorization") == null) {
                    response.setHeader("WWW-Authenticate", "Bearer resource_metadata=\""
                            + base(request) + RESOURCE_METADATA + "\"");
                }
                chain.doFilter(request, response);
            }
        });
        filter.addUrlPatterns(ENDPOINT, ENDPOINT + "/*");
        filter.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return filter;
    }

    static String base(HttpServletRequest request) {
        return request.getScheme() + "://" + request.getServerName() + ":" + request.getServerPort();
    }
}
