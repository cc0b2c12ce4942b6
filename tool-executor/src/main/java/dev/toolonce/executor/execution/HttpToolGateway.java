package dev.toolonce.executor.execution;

import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.outcome.LookupOutcome;
import dev.toolonce.core.outcome.ToolOutcome;
import dev.toolonce.executor.config.ToolProperties;
import dev.toolonce.executor.config.ToolProperties.LookupProperties;
import dev.toolonce.executor.config.ToolProperties.OperationProperties;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Calls tools over HTTP as configured under {@code toolonce.executor.tools} and classifies every answer
 * with DESIGN.md point 7's safe defaults: 2xx applied; 429 retryable; 401/403 rejected and the tool
 * paused; 409 and any unlisted status indeterminate; 5xx indeterminate unless the tool has native
 * idempotency; a provider's "key reused" error to review; other 4xx rejected.
 */
public final class HttpToolGateway implements ToolGateway {
    private static final String KEY_REUSED = "idempotency_key_reused";

    private final Map<String, ToolProperties> tools;
    private final Map<String, HttpClient> clients = new HashMap<>();
    private final ObjectMapper mapper;

    public HttpToolGateway(Map<String, ToolProperties> tools, ObjectMapper mapper) {
        this.tools = tools;
        this.mapper = mapper;
        tools.forEach((name, t) -> clients.put(name, HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(t.connectTimeout())
                .build()));
    }

    @Override
    public boolean supports(String tool, String operation) {
        ToolProperties t = tools.get(tool);
        return t != null && t.operations().containsKey(operation);
    }

    @Override
    public ToolOutcome execute(ToolCall call) {
        ToolProperties tool = tools.get(call.scope().tool());
        OperationProperties op = tool.operations().get(call.scope().operation());
        HttpRequest request = request(call, tool, op);
        try {
            HttpResponse<String> response = clients.get(call.scope().tool())
                    .send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return classify(tool, op, response);
        } catch (HttpConnectTimeoutException | ConnectException e) {
            return new ToolOutcome.Retryable("connection not established: " + e, null);
        } catch (HttpTimeoutException e) {
            return new ToolOutcome.Indeterminate("no response within " + tool.readTimeout() + " after sending");
        } catch (IOException e) {
            return new ToolOutcome.Indeterminate("connection failed after sending: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ToolOutcome.Indeterminate("interrupted while waiting for the tool");
        }
    }

    @Override
    public LookupOutcome lookup(ToolCall call) {
        ToolProperties tool = tools.get(call.scope().tool());
        LookupProperties lookup = tool.operations().get(call.scope().operation()).lookup();
        if (lookup == null || lookup.path() == null) {
            return new LookupOutcome.CannotTell("tool '" + call.scope().tool() + "' offers no lookup");
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(tool.baseUrl()
                        + lookup.path().replace("{providerKey}", call.providerKey().value())))
                .timeout(tool.readTimeout())
                .method(lookup.method(), HttpRequest.BodyPublishers.noBody());
        try {
            HttpResponse<String> r = clients.get(call.scope().tool()).send(b.build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (r.statusCode() == lookup.foundStatus()) {
                JsonNode tree = parseOrNull(r.body());
                JsonNode id = tree == null ? null : tree.at(lookup.externalIdPointer());
                return id == null || id.isMissingNode() || id.isNull()
                        ? new LookupOutcome.CannotTell("lookup found something without " + lookup.externalIdPointer())
                        : new LookupOutcome.Found(id.asString(), mapper.writeValueAsString(tree));
            }
            if (r.statusCode() == lookup.absentStatus()) {
                return new LookupOutcome.Absent();
            }
            return new LookupOutcome.CannotTell("lookup answered " + r.statusCode());
        } catch (IOException e) {
            return new LookupOutcome.CannotTell("lookup failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new LookupOutcome.CannotTell("interrupted during lookup");
        }
    }

    @Override
    public boolean retrySafe(String tool, String operation) {
        ToolProperties t = tools.get(tool);
        return t != null && t.retrySafe(operation);
    }

    @Override
    public Duration settleDelay(String tool) {
        ToolProperties t = tools.get(tool);
        return t == null ? Duration.ofSeconds(1) : t.settleDelay();
    }

    private HttpRequest request(ToolCall call, ToolProperties tool, OperationProperties op) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(tool.baseUrl() + op.path()))
                .timeout(tool.readTimeout())
                .header("Content-Type", "application/json")
                .method(op.method(), HttpRequest.BodyPublishers.ofString(body(call, op), StandardCharsets.UTF_8));
        if (tool.idempotencyHeader() != null && !tool.idempotencyHeader().isBlank()) {
            b.header(tool.idempotencyHeader(), call.providerKey().value());
        }
        if (tool.sandboxHeaders()) {
            b.header("X-ToolOnce-Scope", call.scope().recordKey());
            b.header("X-ToolOnce-Fence", Long.toString(call.fence()));
        }
        return b.build();
    }

    /** The intent's arguments, plus the provider key as the unique reference when the tool takes one. */
    private String body(ToolCall call, OperationProperties op) {
        if (op.referenceField() == null || op.referenceField().isBlank()) {
            return call.argumentsJson();
        }
        ObjectNode args = (ObjectNode) mapper.readTree(call.argumentsJson());
        args.put(op.referenceField(), call.providerKey().value());
        return mapper.writeValueAsString(args);
    }

    private ToolOutcome classify(ToolProperties tool, OperationProperties op, HttpResponse<String> r) {
        int status = r.statusCode();
        if (status >= 200 && status < 300) {
            return new ToolOutcome.Applied(externalId(r.body(), op), jsonOrNull(r.body()));
        }
        if (status == 429) {
            return new ToolOutcome.Retryable("429 Too Many Requests", retryAfter(r));
        }
        if (status == 401 || status == 403) {
            return new ToolOutcome.Rejected("TOOL_UNAUTHORIZED", "tool answered " + status, true, false);
        }
        if (status == 409) {
            return new ToolOutcome.Indeterminate("409 Conflict: the request may be in progress or already applied");
        }
        if (status >= 500 && status < 600) {
            return tool.nativeIdempotency()
                    ? new ToolOutcome.Retryable(status + " from a tool with native idempotency", retryAfter(r))
                    : new ToolOutcome.Indeterminate(status + " from the tool");
        }
        if (status >= 400 && status < 500) {
            boolean reused = r.body() != null && r.body().contains(KEY_REUSED);
            return new ToolOutcome.Rejected(reused ? "PROVIDER_KEY_REUSED" : "TOOL_REJECTED",
                    "tool answered " + status + ": " + abbreviate(r.body()), false, reused);
        }
        return new ToolOutcome.Indeterminate("unexpected status " + status);
    }

    private String externalId(String body, OperationProperties op) {
        JsonNode tree = parseOrNull(body);
        if (tree == null) {
            return null;
        }
        JsonNode id = tree.at(op.externalIdPointer());
        return id.isMissingNode() || id.isNull() ? null : id.asString();
    }

    private String jsonOrNull(String body) {
        JsonNode tree = parseOrNull(body);
        return tree == null ? null : mapper.writeValueAsString(tree);
    }

    private JsonNode parseOrNull(String body) {
        try {
            return body == null || body.isBlank() ? null : mapper.readTree(body);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static Duration retryAfter(HttpResponse<?> r) {
        return r.headers().firstValue("Retry-After").map(v -> {
            try {
                return Duration.ofSeconds(Long.parseLong(v.trim()));
            } catch (NumberFormatException e) {
                return null;
            }
        }).orElse(null);
    }

    private static String abbreviate(String s) {
        return s == null ? "" : s.length() <= 300 ? s : s.substring(0, 300) + "…";
    }
}
