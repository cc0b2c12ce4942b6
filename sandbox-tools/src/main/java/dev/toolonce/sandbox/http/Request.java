package dev.toolonce.sandbox.http;

import com.sun.net.httpserver.Headers;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * One HTTP request as the endpoints see it: method, path, path and query parameters, headers
 * and the whole body.
 *
 * @param pathParams values of the {@code {name}} segments of the matched route
 */
public record Request(String method, String path, Map<String, String> pathParams,
                      Map<String, String> query, Headers headers, byte[] body) {

    /** Header naming the executor's call scope; recorded, never interpreted. */
    public static final String SCOPE_HEADER = "X-ToolOnce-Scope";
    /** Header carrying the executor's fence (an integer); recorded, never interpreted. */
    public static final String FENCE_HEADER = "X-ToolOnce-Fence";

    /** @return the first value of header {@code name}, or null when absent or blank */
    public String header(String name) {
        String value = headers.getFirst(name);
        return value == null || value.isBlank() ? null : value.trim();
    }

    /** @return the {@value #SCOPE_HEADER} header, or null */
    public String scope() {
        return header(SCOPE_HEADER);
    }

    /**
     * @return the {@value #FENCE_HEADER} header, or null when absent
     * @throws HttpProblem 400 when it is not an integer
     */
    public Long fence() {
        String value = header(FENCE_HEADER);
        if (value == null) {
            return null;
        }
        try {
            return Long.valueOf(value);
        } catch (NumberFormatException e) {
            throw HttpProblem.badRequest(FENCE_HEADER + " must be an integer, was '" + value + "'");
        }
    }

    /**
     * @return the value of query parameter {@code name}
     * @throws HttpProblem 400 when it is missing or blank
     */
    public String requiredQuery(String name) {
        String value = query.get(name);
        if (value == null || value.isBlank()) {
            throw HttpProblem.badRequest("query parameter " + name + " is required");
        }
        return value;
    }

    /** @return the value of path parameter {@code name}; the route guarantees it exists */
    public String pathParam(String name) {
        return pathParams.get(name);
    }

    Request withPathParams(Map<String, String> params) {
        return new Request(method, path, Map.copyOf(params), query, headers, body);
    }

    static Map<String, String> parseQuery(String rawQuery) {
        Map<String, String> query = new HashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return query;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            query.putIfAbsent(decode(name), decode(value));
        }
        return query;
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }
}
