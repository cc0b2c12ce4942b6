package dev.toolonce.executor.adapter;

import dev.toolonce.core.adapter.ToolAdapter;
import dev.toolonce.core.adapter.ToolDescriptor;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.outcome.LookupOutcome;
import dev.toolonce.core.outcome.ToolOutcome;
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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The generic HTTP adapter: one instance per tool, built from {@code toolonce.executor.tools.<name>} by
 * {@link HttpAdapterFactory}. One request per method call; every answer is classified by
 * {@link StatusClassifier}, every transport failure by whether the request can have been sent. Request
 * headers (credentials included) never appear in an outcome; response bodies are redacted of the secret.
 */
public final class HttpToolAdapter implements ToolAdapter {

    /** One configured request: method, URL template, optional body template, where the id is. */
    record RequestSpec(String method, Template path, BodyTemplate body, String referenceField,
                       String externalIdPointer) {
    }

    /** A lookup request and how its answer reads. */
    record LookupSpec(String method, Template path, int foundStatus, int absentStatus, String externalIdPointer) {
    }

    /** Everything about one operation. */
    record OperationSpec(RequestSpec request, LookupSpec lookup, RequestSpec compensation) {
    }

    /** How the tool is reached, apart from its operations. */
    record Connection(String baseUrl, String idempotencyHeader, boolean sandboxHeaders, Credential credential) {
        @Override
        public String toString() {
            return "Connection[" + baseUrl + ", idempotency header " + idempotencyHeader + ", "
                    + (credential == null ? "no credential" : credential) + "]";
        }
    }

    private final ToolDescriptor descriptor;
    private final Connection connection;
    private final StatusClassifier classifier;
    private final Map<String, OperationSpec> operations;
    private final HttpClient client;
    private final ObjectMapper mapper;

    HttpToolAdapter(ToolDescriptor descriptor, Connection connection, StatusClassifier classifier,
                    Map<String, OperationSpec> operations, ObjectMapper mapper) {
        this.descriptor = descriptor;
        this.connection = connection;
        this.classifier = classifier;
        this.operations = Map.copyOf(operations);
        this.mapper = mapper;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(descriptor.connectTimeout()).build();
    }

    @Override
    public ToolDescriptor descriptor() {
        return descriptor;
    }

    @Override
    public ToolOutcome execute(ToolCall call) {
        OperationSpec op = operations.get(call.scope().operation());
        if (op == null) {
            return new ToolOutcome.Rejected("UNKNOWN_OPERATION", "tool '" + descriptor.name()
                    + "' has no operation '" + call.scope().operation() + "'");
        }
        HttpRequest request;
        try {
            request = build(op.request(), values(call, call.providerKey(), null), call.argumentsJson(),
                    call.providerKey(), call.scope().recordKey(), call.fence());
        } catch (Template.MissingArgumentException e) {
            return new ToolOutcome.Rejected("INVALID_ARGUMENTS", e.getMessage());
        }
        return send(request, op.request());
    }

    @Override
    public ToolOutcome compensate(ToolCall original) {
        OperationSpec op = operations.get(original.scope().operation());
        if (op == null || op.compensation() == null) {
            return new ToolOutcome.Rejected("NOT_COMPENSABLE", "tool '" + descriptor.name() + "' operation '"
                    + original.scope().operation() + "' has no compensation");
        }
        ProviderKey key = ProviderKey.compensationOf(original.scope());
        HttpRequest request;
        try {
            request = build(op.compensation(), values(original, key, original.externalObjectId()), null, key,
                    original.scope().recordKey() + "#compensate", original.fence());
        } catch (Template.MissingArgumentException e) {
            return new ToolOutcome.Rejected("INVALID_ARGUMENTS", e.getMessage());
        }
        return send(request, op.compensation());
    }

    @Override
    public LookupOutcome lookup(ToolCall call) {
        OperationSpec op = operations.get(call.scope().operation());
        LookupSpec lookup = op == null ? null : op.lookup();
        if (lookup == null) {
            return new LookupOutcome.CannotTell("tool '" + descriptor.name() + "' offers no lookup for '"
                    + call.scope().operation() + "'");
        }
        HttpRequest request;
        try {
            request = authorised(HttpRequest.newBuilder(uri(lookup.path(), values(call, call.providerKey(), null))))
                    .timeout(descriptor.readTimeout())
                    .method(lookup.method(), HttpRequest.BodyPublishers.noBody()).build();
        } catch (Template.MissingArgumentException e) {
            return new LookupOutcome.CannotTell("lookup cannot be built: " + e.getMessage());
        }
        try {
            HttpResponse<String> r = exchange(request);
            if (r.statusCode() == lookup.foundStatus()) {
                JsonNode tree = parseOrNull(r.body());
                String id = pointer(tree, lookup.externalIdPointer());
                return id == null
                        ? new LookupOutcome.CannotTell("lookup found something without " + lookup.externalIdPointer())
                        : new LookupOutcome.Found(id, redact(mapper.writeValueAsString(tree)));
            }
            if (r.statusCode() == lookup.absentStatus()) {
                return new LookupOutcome.Absent();
            }
            return new LookupOutcome.CannotTell("lookup answered " + r.statusCode());
        } catch (IOException | TimeoutException e) {
            return new LookupOutcome.CannotTell("lookup failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new LookupOutcome.CannotTell("interrupted during lookup");
        }
    }

    private Template.Values values(ToolCall call, ProviderKey key, String externalId) {
        return new Template.Values(key.value(), parseOrNull(call.argumentsJson()), externalId);
    }

    private HttpRequest build(RequestSpec spec, Template.Values values, String argumentsAsSent, ProviderKey key,
                              String scope, long fence) {
        String body = spec.body() != null ? spec.body().render(values)
                : spec.referenceField() != null ? withReference(argumentsAsSent, spec.referenceField(), key)
                : argumentsAsSent;
        HttpRequest.Builder b = authorised(HttpRequest.newBuilder(uri(spec.path(), values)))
                .timeout(descriptor.readTimeout())
                .method(spec.method(), body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        if (connection.idempotencyHeader() != null) {
            b.header(connection.idempotencyHeader(), key.value());
        }
        if (connection.sandboxHeaders()) {
            b.header("X-ToolOnce-Scope", scope);
            b.header("X-ToolOnce-Fence", Long.toString(fence));
        }
        return b.build();
    }

    /** The arguments as received plus the provider key as the unique reference. */
    private String withReference(String argumentsJson, String field, ProviderKey key) {
        JsonNode args = parseOrNull(argumentsJson);
        if (!(args instanceof tools.jackson.databind.node.ObjectNode object)) {
            throw new Template.MissingArgumentException("the arguments are not a JSON object to add " + field + " to");
        }
        object.put(field, key.value());
        return mapper.writeValueAsString(object);
    }

    private URI uri(Template path, Template.Values values) {
        return URI.create(connection.baseUrl() + path.renderUrl(values));
    }

    private HttpRequest.Builder authorised(HttpRequest.Builder b) {
        Credential c = connection.credential();
        return c == null ? b : b.header(c.header(), c.value());
    }

    private ToolOutcome send(HttpRequest request, RequestSpec spec) {
        try {
            return classify(exchange(request), spec);
        } catch (HttpConnectTimeoutException | ConnectException e) {
            return new ToolOutcome.Retryable("connection not established: " + e.getClass().getSimpleName(), null);
        } catch (HttpTimeoutException e) {
            return new ToolOutcome.Indeterminate("no response within " + descriptor.readTimeout() + " after sending");
        } catch (TimeoutException e) {
            return new ToolOutcome.Indeterminate("no response within total-timeout " + descriptor.totalTimeout());
        } catch (IOException e) {
            return new ToolOutcome.Indeterminate("connection failed after sending: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ToolOutcome.Indeterminate("interrupted while waiting for the tool");
        }
    }

    /** One exchange bounded by the total timeout; unwraps the client's exceptions. */
    private HttpResponse<String> exchange(HttpRequest request)
            throws IOException, InterruptedException, TimeoutException {
        CompletableFuture<HttpResponse<String>> f = client.sendAsync(request,
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        try {
            return f.get(descriptor.totalTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            while (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException(cause);
        } catch (TimeoutException | InterruptedException e) {
            f.cancel(true);
            throw e;
        }
    }

    private ToolOutcome classify(HttpResponse<String> r, RequestSpec spec) {
        int status = r.statusCode();
        String body = redact(r.body());
        Verdict verdict = classifier.classify(status, r.body());
        if (verdict == Verdict.APPLIED) {
            JsonNode tree = parseOrNull(r.body());
            return new ToolOutcome.Applied(pointer(tree, spec.externalIdPointer()),
                    tree == null ? null : redact(mapper.writeValueAsString(tree)));
        }
        if (verdict == Verdict.RETRYABLE) {
            return new ToolOutcome.Retryable(status + " from the tool, not applied", retryAfter(r));
        }
        if (verdict == Verdict.PAUSE) {
            return new ToolOutcome.Rejected("TOOL_UNAUTHORIZED", "tool answered " + status
                    + ": credentials refused; tool '" + descriptor.name() + "' paused until an operator resumes it",
                    true, false);
        }
        if (verdict == Verdict.REVIEW) {
            return new ToolOutcome.Rejected("PROVIDER_KEY_REUSED", "tool answered " + status
                    + " (key reused with other parameters): " + abbreviate(body), false, true);
        }
        if (verdict == Verdict.REJECTED) {
            return new ToolOutcome.Rejected("TOOL_REJECTED", "tool answered " + status + ": " + abbreviate(body));
        }
        return new ToolOutcome.Indeterminate(status + " from the tool: the effect may or may not have happened");
    }

    private String redact(String text) {
        Credential c = connection.credential();
        return c == null ? text : c.redact(text);
    }

    private static String pointer(JsonNode tree, String pointer) {
        if (tree == null) {
            return null;
        }
        JsonNode id = tree.at(pointer);
        return id.isMissingNode() || id.isNull() ? null : id.asString();
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

    @Override
    public String toString() {
        return "HttpToolAdapter[" + descriptor.name() + ", " + connection + "]";
    }
}
