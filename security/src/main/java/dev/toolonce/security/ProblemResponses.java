package dev.toolonce.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;

/**
 * Refusals of the filter chain as RFC 9457 problem details: 401 with {@code WWW-Authenticate: Bearer} (no credential,
 * or one that is not valid), 403 (valid, but the role does not allow it). The text never echoes the credential.
 */
public final class ProblemResponses implements AuthenticationEntryPoint, AccessDeniedHandler {

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        // a service that names its OAuth protected resource metadata (the MCP gateway, RFC 9728) has set the header
        // with resource_metadata before the chain ran: kept, with the realm added
        String named = response.getHeader("WWW-Authenticate");
        response.setHeader("WWW-Authenticate", named != null && named.startsWith("Bearer resource_metadata=")
                ? named + ", realm=\"toolonce\"" : "Bearer realm=\"toolonce\"");
        write(response, 401, "Unauthorized", request.getHeader("Authorization") == null
                ? "this endpoint needs a credential: Authorization: Bearer <API token or JWT>"
                : "the credential is not valid (unknown, revoked, expired or malformed)");
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
            throws IOException {
        write(response, 403, "Forbidden", "the credential's role does not allow " + request.getMethod() + " "
                + request.getRequestURI());
    }

    static void write(HttpServletResponse response, int status, String title, String detail) throws IOException {
        response.setStatus(status);
        response.setContentType("application/problem+json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write("{\"type\":\"about:blank\",\"title\":\"" + title + "\",\"status\":" + status
                + ",\"detail\":\"" + detail.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}");
    }
}
