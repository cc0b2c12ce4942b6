package dev.toolonce.executor.adapter;

import dev.toolonce.core.adapter.ToolAdapter;
import dev.toolonce.core.adapter.ToolDescriptor;
import dev.toolonce.core.call.DryRun;
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
import dev.toolonce.core.text.StoredText;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.InputBounds;
import java.time.Clock;
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
 * headers (credentials included) never appear in an outcome; response bodies are redacted of every secret of the
 * tool. A call is sent with its tenant's own credential when the tool has one for it, else with the shared one
 * ({@link Credentials}); which one decides whom a 401/403 pauses the tool for.
 *
 * <p>What a tool sends back is bounded before it costs anything ({@link Bounds}): bodies are read up to
 * {@code max-response-bytes} (a longer body is still classified by its status; the stored result is then a
 * small JSON note with the size and the SHA-256 of the body, never the body), {@code Retry-After} is capped,
 * path values that would leave their segment are refused without sending, and no text handed to the ledger
 * contains NUL. An external id longer than 1024 characters or with control characters is not used: the
 * outcome is then an {@code Applied} without an id, which the executor flags.
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
    record Connection(String baseUrl, String idempotencyHeader, boolean sandboxHeaders, Credentials credentials) {
        @Override
        public String toString() {
            return "Connection[" + baseUrl + ", idempotency header " + idempotencyHeader + ", " + credentials + "]";
        }
    }

    /**
     * Limits on what the tool sends back.
     *
     * @param maxResponseBytes bytes of a response body kept and parsed; a longer body is hashed, not stored
     * @param maxRetryAfter    the longest {@code Retry-After} honoured
     */
    record Bounds(int maxResponseBytes, Duration maxRetryAfter) {
        /** Bodies are hashed up to this many times the limit, then reading stops (the status still counts). */
        static final int HASH_FACTOR = 64;
    }

    /** The longest external id kept, as the result contract allows. */
    static final int MAX_EXTERNAL_ID = InputBounds.MAX_LONG_ID_CHARS;
    /** Characters of an oversized body kept in the stored note, for a human to recognise it. */
    private static final int PREFIX_CHARS = 512;

    private final ToolDescriptor descriptor;
    private final Connection connection;
    private final Bounds bounds;
    private final Clock clock;
    private final StatusClassifier classifier;
    private final Map<String, OperationSpec> operations;
    private final HttpClient client;
    private final ObjectMapper mapper;

    HttpToolAdapter(ToolDescriptor descriptor, Connection connection, StatusClassifier classifier,
                    Map<String, OperationSpec> operations, ObjectMapper mapper, Bounds bounds, Clock clock) {
        this.descriptor = descriptor;
        this.bounds = bounds;
        this.clock = clock;
        this.connection = connection;
        this.classifier = classifier;
        this.operations = Map.copyOf(operations);
        this.mapper = mapper;
        // The client's own work (reading the answer into a BoundedBody, completing the future the worker waits on)
        // runs on its selector thread rather than being handed to a pool thread first: one thread switch less per
        // call, a fifth of the executor's CPU at 1,500 calls/s (docs/performance.md, fourth round). Nothing it runs
        // blocks, but its CPU work is serial per tool: TLS decryption and hashing a body bounded by
        // max-response-bytes × HASH_FACTOR. Each tool has a client (and a selector thread) of its own, so a tool
        // sending large bodies can slow its own answers only.
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .executor(Runnable::run)
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
        Credentials.Choice credential = connection.credentials().forTenant(call.scope().tenantId());
        HttpRequest request;
        try {
            request = build(op.request(), values(call, call.providerKey(), null), call.argumentsJson(),
                    call.providerKey(), call.scope().recordKey(), call.fence(), call.traceparent(), credential);
        } catch (Template.UnusableArgumentException e) {
            return new ToolOutcome.Rejected("INVALID_ARGUMENTS", StoredText.clean(e.getMessage()));
        }
        return send(request, op.request(), credential.pause());
    }

    @Override
    public ToolOutcome compensate(ToolCall original) {
        OperationSpec op = operations.get(original.scope().operation());
        if (op == null || op.compensation() == null) {
            return new ToolOutcome.Rejected("NOT_COMPENSABLE", "tool '" + descriptor.name() + "' operation '"
                    + original.scope().operation() + "' has no compensation");
        }
        ProviderKey key = ProviderKey.compensationOf(original.scope());
        Credentials.Choice credential = connection.credentials().forTenant(original.scope().tenantId());
        HttpRequest request;
        try {
            request = build(op.compensation(), values(original, key, original.externalObjectId()), null, key,
                    original.scope().recordKey() + "#compensate", original.fence(), original.traceparent(), credential);
        } catch (Template.UnusableArgumentException e) {
            return new ToolOutcome.Rejected("INVALID_ARGUMENTS", StoredText.clean(e.getMessage()));
        }
        return send(request, op.compensation(), credential.pause());
    }

    /**
     * {@inheritDoc} A dry run ({@link DryRun}) is answered {@code Absent} without asking: it never has an effect,
     * so whatever its unknown attempt did, nothing exists to find.
     */
    @Override
    public LookupOutcome lookup(ToolCall call) {
        OperationSpec op = operations.get(call.scope().operation());
        if (op != null && DryRun.isDryRun(call.scope().operation())) {
            return new LookupOutcome.Absent();
        }
        LookupSpec lookup = op == null ? null : op.lookup();
        if (lookup == null) {
            return new LookupOutcome.CannotTell("tool '" + descriptor.name() + "' offers no lookup for '"
                    + call.scope().operation() + "'");
        }
        HttpRequest request;
        try {
            request = authorised(HttpRequest.newBuilder(uri(lookup.path(), values(call, call.providerKey(), null))),
                            connection.credentials().forTenant(call.scope().tenantId()))
                    .timeout(descriptor.readTimeout())
                    .method(lookup.method(), HttpRequest.BodyPublishers.noBody()).build();
        } catch (Template.UnusableArgumentException e) {
            return new LookupOutcome.CannotTell(StoredText.clean("lookup cannot be built: " + e.getMessage()));
        }
        try {
            return readLookup(exchange(request), lookup);
        } catch (IOException | TimeoutException e) {
            return new LookupOutcome.Unavailable(StoredText.clean("lookup failed: " + e), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new LookupOutcome.Unavailable("interrupted during lookup", null);
        }
    }

    /**
     * Found and absent by the configured statuses; a status that may pass (408, 425, 429, 5xx, and 401/403
     * until an operator fixes the credential) is {@code Unavailable}, to be asked again; anything else
     * cannot tell.
     */
    private LookupOutcome readLookup(HttpResponse<BoundedBody.Body> r, LookupSpec lookup) {
        int status = r.statusCode();
        if (status == lookup.foundStatus()) {
            JsonNode tree = r.body().truncated() ? null : parseOrNull(r.body().text());
            String id = externalId(tree, lookup.externalIdPointer());
            return id == null
                    ? new LookupOutcome.CannotTell("lookup answered " + status + " without a usable id at "
                            + lookup.externalIdPointer() + describe(r.body()))
                    : new LookupOutcome.Found(id, resultJson(tree, r.body()));
        }
        if (status == lookup.absentStatus()) {
            return new LookupOutcome.Absent();
        }
        if (status == 408 || status == 425 || status == 429 || status == 401 || status == 403
                || (status >= 500 && status < 600)) {
            return new LookupOutcome.Unavailable("lookup answered " + status, retryAfter(r));
        }
        return new LookupOutcome.CannotTell("lookup answered " + status);
    }

    private Template.Values values(ToolCall call, ProviderKey key, String externalId) {
        return new Template.Values(key.value(), parseOrNull(call.argumentsJson()), externalId);
    }

    /**
     * @param traceparent the agent's trace, sent on to the tool (docs/contract.md §14); nullable
     * @param credential  the call's tenant's credential
     */
    private HttpRequest build(RequestSpec spec, Template.Values values, String argumentsAsSent, ProviderKey key,
                              String scope, long fence, String traceparent, Credentials.Choice credential) {
        String body = spec.body() != null ? spec.body().render(values)
                : spec.referenceField() != null ? withReference(argumentsAsSent, spec.referenceField(), key)
                : argumentsAsSent;
        HttpRequest.Builder b = authorised(HttpRequest.newBuilder(uri(spec.path(), values)), credential)
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
        if (traceparent != null) {
            b.header(Contract.TRACEPARENT, traceparent);
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

    private static HttpRequest.Builder authorised(HttpRequest.Builder b, Credentials.Choice credential) {
        Credential c = credential.credential();
        return c == null ? b : b.header(c.header(), c.value());
    }

    /** @param pause whom a refusal of the credentials this request was sent with pauses the tool for */
    private ToolOutcome send(HttpRequest request, RequestSpec spec, ToolOutcome.Pause pause) {
        try {
            return classify(exchange(request), spec, pause);
        } catch (HttpConnectTimeoutException | ConnectException e) {
            return ToolOutcome.Retryable.notApplied("connection not established: " + e.getClass().getSimpleName(), null);
        } catch (HttpTimeoutException e) {
            return new ToolOutcome.Indeterminate("no response within " + descriptor.readTimeout() + " after sending");
        } catch (TimeoutException e) {
            return new ToolOutcome.Indeterminate("no response within total-timeout " + descriptor.totalTimeout());
        } catch (IOException e) {
            return new ToolOutcome.Indeterminate(StoredText.clean("connection failed after sending: " + e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ToolOutcome.Indeterminate("interrupted while waiting for the tool");
        }
    }

    /** One exchange bounded by the total timeout; unwraps the client's exceptions. */
    private HttpResponse<BoundedBody.Body> exchange(HttpRequest request)
            throws IOException, InterruptedException, TimeoutException {
        CompletableFuture<HttpResponse<BoundedBody.Body>> f = client.sendAsync(request, BoundedBody.handler(
                bounds.maxResponseBytes(), (long) bounds.maxResponseBytes() * Bounds.HASH_FACTOR));
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

    private ToolOutcome classify(HttpResponse<BoundedBody.Body> r, RequestSpec spec, ToolOutcome.Pause pause) {
        int status = r.statusCode();
        String text = r.body().text();
        String body = StoredText.clean(redact(text));
        Verdict verdict = classifier.classify(status, text);
        if (verdict == Verdict.APPLIED) {
            JsonNode tree = r.body().truncated() ? null : parseOrNull(text);
            return new ToolOutcome.Applied(externalId(tree, spec.externalIdPointer()), resultJson(tree, r.body()));
        }
        if (verdict == Verdict.RETRYABLE) {
            // docs/adapters.md §3: a 5xx is retryable only under native idempotency, and then the effect may
            // exist (the provider failed after applying); only 429 and explicit overrides say "not applied".
            boolean serverError = status >= 500 && status < 600;
            return serverError && classifier.nativeIdempotency()
                    ? ToolOutcome.Retryable.effectPossible(status + " from the tool: resend under the same key, "
                            + "the effect may exist", retryAfter(r))
                    : ToolOutcome.Retryable.notApplied(status + " from the tool, not applied", retryAfter(r));
        }
        if (verdict == Verdict.PAUSE) {
            // docs/adapters.md §6: a tenant's own credential pauses the tool for that tenant, the shared one for all.
            return ToolOutcome.Rejected.credentialsRefused("TOOL_UNAUTHORIZED", "tool answered " + status
                    + ": credentials refused; tool '" + descriptor.name() + "' paused "
                    + (pause == ToolOutcome.Pause.TENANT ? "for this tenant" : "for every tenant")
                    + " until an operator resumes it", pause);
        }
        if (verdict == Verdict.REVIEW) {
            return ToolOutcome.Rejected.forReview("PROVIDER_KEY_REUSED", "tool answered " + status
                    + " (key reused with other parameters): " + abbreviate(body));
        }
        if (verdict == Verdict.REJECTED) {
            return new ToolOutcome.Rejected("TOOL_REJECTED", "tool answered " + status + ": " + abbreviate(body));
        }
        return new ToolOutcome.Indeterminate(status + " from the tool: the effect may or may not have happened"
                + describe(r.body()));
    }

    /**
     * The result to store: the parsed body re-serialised (redacted, NUL-free), or — for a body over the
     * limit — a small JSON note: {@code {"truncated": true, "bytes": n, "complete": bool, "sha256": hex,
     * "prefix": "..."}}. Null for an empty or non-JSON body.
     */
    private String resultJson(JsonNode tree, BoundedBody.Body body) {
        if (body.truncated()) {
            String prefix = body.text().length() > PREFIX_CHARS ? body.text().substring(0, PREFIX_CHARS) : body.text();
            var note = mapper.createObjectNode().put("truncated", true).put("bytes", body.bytes())
                    .put("complete", body.complete()).put("sha256", body.sha256())
                    .put("prefix", StoredText.clean(redact(prefix)));
            return mapper.writeValueAsString(note);
        }
        return tree == null ? null : StoredText.cleanJson(redact(mapper.writeValueAsString(tree)));
    }

    /** For error texts: the size and hash of an oversized body, else nothing. */
    private static String describe(BoundedBody.Body body) {
        return body.truncated() ? " (body of " + (body.complete() ? "" : "at least ") + body.bytes()
                + " bytes over the limit, sha256 " + body.sha256() + ")" : "";
    }

    /** The id at {@code pointer}, if it is a usable id: a scalar of at most 1024 printable characters. */
    private String externalId(JsonNode tree, String pointer) {
        String id = pointer(tree, pointer);
        if (id == null || id.isEmpty() || id.length() > MAX_EXTERNAL_ID || !StoredText.isPrintable(id)) {
            return null;
        }
        String redacted = redact(id);
        return redacted.equals(id) ? id : null;
    }

    private String redact(String text) {
        return connection.credentials().redact(text);
    }

    private static String pointer(JsonNode tree, String pointer) {
        if (tree == null) {
            return null;
        }
        JsonNode id = tree.at(pointer);
        return id.isMissingNode() || id.isNull() || !id.isValueNode() ? null : id.asString();
    }

    private JsonNode parseOrNull(String body) {
        try {
            return body == null || body.isBlank() ? null : mapper.readTree(body);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private Duration retryAfter(HttpResponse<?> r) {
        return RetryAfter.parse(r.headers().firstValue("Retry-After").orElse(null), bounds.maxRetryAfter(), clock);
    }

    private static String abbreviate(String s) {
        if (s == null || s.length() <= 300) {
            return s == null ? "" : s;
        }
        // Cut on a code point boundary so that no lone surrogate is stored.
        int end = Character.isHighSurrogate(s.charAt(299)) ? 299 : 300;
        return s.substring(0, end) + "…";
    }

    @Override
    public String toString() {
        return "HttpToolAdapter[" + descriptor.name() + ", " + connection + "]";
    }
}
