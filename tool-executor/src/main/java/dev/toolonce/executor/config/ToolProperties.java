package dev.toolonce.executor.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code toolonce.executor.tools.<name>}: one tool reached over HTTP by the generic adapter, described
 * entirely in configuration. Everything here is checked at start-up by
 * {@code dev.toolonce.executor.adapter.HttpAdapterFactory}, which refuses to start naming the tool and
 * the field.
 *
 * @param baseUrl           scheme, host and port, e.g. {@code https://api.example.com}; required
 * @param capabilities      names of {@link dev.toolonce.core.adapter.Capability} values; empty for none
 * @param idempotencyWindow how long the provider remembers an idempotency key; required with NATIVE_IDEMPOTENCY
 * @param idempotencyHeader header that carries the provider key; null or empty for none
 * @param sandboxHeaders    send {@code X-ToolOnce-Scope}/{@code X-ToolOnce-Fence} (sandbox only, never real providers)
 * @param connectTimeout    TCP connect timeout
 * @param readTimeout       time allowed for the response once sent
 * @param totalTimeout      the longest one attempt may take; null for connect + read
 * @param settleDelay       wait after an unknown outcome before asking the tool what happened
 * @param keyReusedMarker   text in an error body by which the provider says "key reused with other
 *                          parameters" (→ NEEDS_REVIEW); null when the provider has none
 * @param credentials       where the secret comes from; null for none
 * @param statuses          per-status overrides of the safe defaults: {@code applied, rejected, retryable,
 *                          indeterminate, review, pause}
 * @param operations        per operation: the request to send; at least one
 * @param maxResponseBytes  bytes of a response body read and stored (default 64 KiB, at most 128 KiB so a
 *                          stored result always fits a result event); a longer body is still classified by
 *                          its status and stored as a note with its size and SHA-256
 * @param maxRetryAfter     the longest {@code Retry-After} honoured (default 5 minutes); longer values are capped
 * @param description       what the tool is, for the catalogue (docs/adapters.md §8); nullable
 */
public record ToolProperties(
        String baseUrl,
        List<String> capabilities,
        Duration idempotencyWindow,
        String idempotencyHeader,
        @DefaultValue("false") boolean sandboxHeaders,
        @DefaultValue("2s") Duration connectTimeout,
        @DefaultValue("10s") Duration readTimeout,
        Duration totalTimeout,
        @DefaultValue("1s") Duration settleDelay,
        String keyReusedMarker,
        CredentialProperties credentials,
        Map<Integer, String> statuses,
        Map<String, OperationProperties> operations,
        @DefaultValue("65536") int maxResponseBytes,
        @DefaultValue("5m") Duration maxRetryAfter,
        String description) {

    public ToolProperties {
        capabilities = capabilities == null ? List.of() : List.copyOf(capabilities);
        statuses = statuses == null ? Map.of() : Map.copyOf(statuses);
        operations = operations == null ? Map.of() : Map.copyOf(operations);
    }

    /**
     * One operation of a tool. Templates may use {@code {providerKey}} and {@code {arg./json/pointer}}
     * (a value of the intent's arguments); values put into the path are URL-encoded.
     *
     * @param method            HTTP method (POST by default)
     * @param path              path template appended to the base URL; required
     * @param body              JSON template of the body; null sends the arguments exactly as received. A
     *                          string that is exactly one placeholder takes the argument's JSON type.
     * @param referenceField    with no body template: the arguments as received plus this member set to the
     *                          provider key (the unique external reference); nullable
     * @param externalIdPointer JSON pointer to the created object's id in the response (default {@code /id})
     * @param lookup            how to ask whether an attempt took effect; null when the tool offers no way
     * @param compensation      how to undo a committed effect; may also use {@code {externalId}}; nullable
     * @param dryRun            a request that checks the arguments as this operation would and has no effect; when
     *                          set, the tool also offers the operation {@code <op>.dry-run}
     *                          ({@link dev.toolonce.core.call.DryRun}); nullable
     * @param description       what the operation does, for the catalogue and the models that read it; nullable
     * @param inputSchema       the JSON Schema (draft 2020-12, as JSON text) its arguments must meet: intake refuses
     *                          others with {@code REJECTED INVALID_ARGUMENTS} naming the field, before any effect
     *                          (docs/adapters.md §8); nullable: then any JSON object is accepted
     * @param destructive       whether the effect may destroy or overwrite something (MCP's {@code destructiveHint});
     *                          false for an operation that only adds (default true)
     * @param approval          {@code required}: a call a model asks for through ToolOnce's framework doors (the
     *                          gateway, the Spring AI and LangChain4j tools) waits for an operator's approval before
     *                          it is sent (docs/agent-calls.md §7); {@code none} (the default) otherwise
     */
    public record OperationProperties(
            @DefaultValue("POST") String method,
            String path,
            String body,
            String referenceField,
            @DefaultValue("/id") String externalIdPointer,
            LookupProperties lookup,
            CompensationProperties compensation,
            DryRunProperties dryRun,
            String description,
            String inputSchema,
            @DefaultValue("true") boolean destructive,
            @DefaultValue("none") String approval) {
    }

    /**
     * The dry run of an operation: what the tool offers to validate a request without carrying it out (a
     * "validate" or "preview" endpoint). Sent like the operation itself — same templates, the arguments as
     * received when there is no body template — under the dry run's own provider key. Its answer is classified
     * like any other; it never creates anything, so an unknown outcome of it is always safe to send again.
     *
     * @param method HTTP method (POST by default)
     * @param path   path template; required
     * @param body   JSON template of the body; null sends the arguments exactly as received
     */
    public record DryRunProperties(@DefaultValue("POST") String method, String path, String body) {
    }

    /**
     * A lookup request by provider key or reference; both statuses must be configured.
     *
     * @param method            HTTP method (GET by default)
     * @param path              path template, e.g. {@code /payments/charges?idempotency_key={providerKey}}
     * @param foundStatus       status that means "exists"
     * @param absentStatus      status that means "confirmed absent"
     * @param externalIdPointer JSON pointer to the found object's id
     */
    public record LookupProperties(
            @DefaultValue("GET") String method,
            String path,
            Integer foundStatus,
            Integer absentStatus,
            @DefaultValue("/id") String externalIdPointer) {
    }

    /**
     * The request that undoes an operation's effect, sent with the derived compensation key.
     *
     * @param method            HTTP method (POST by default)
     * @param path              path template; {@code {externalId}} is the original call's external object id
     * @param body              JSON template; null sends no body
     * @param externalIdPointer JSON pointer to the compensation's own id in the response
     */
    public record CompensationProperties(
            @DefaultValue("POST") String method,
            String path,
            String body,
            @DefaultValue("/id") String externalIdPointer) {
    }

    /**
     * A secret read from the environment at start-up and sent as one header. The value is never logged,
     * stored or put into a message. It is the credential every tenant shares; a tenant listed in {@code tenants}
     * is sent its own instead (docs/adapters.md §6), and a refusal (401/403) of a tenant's own credential pauses the
     * tool for that tenant only, a refusal of this one for every tenant.
     *
     * @param header  header name, e.g. {@code Authorization}; required
     * @param env     name of the environment variable holding the secret; required
     * @param prefix  text before the secret, e.g. {@code "Bearer "}
     * @param tenants the tenants' own credentials, as {@code credentials.tenants.<tenantId>.env} (required),
     *                {@code .header} and {@code .prefix} (default: the shared credential's); empty for none. Bound
     *                as flat keys {@code <tenantId>.<field>} so that a tenant id keeps its dots, case and
     *                underscores, and checked by the adapter factory (an unknown field is refused, never dropped)
     */
    public record CredentialProperties(String header, String env, @DefaultValue("") String prefix,
                                       Map<String, String> tenants) {
        public CredentialProperties {
            tenants = tenants == null ? Map.of() : Map.copyOf(tenants);
        }
    }

    /** The longest one attempt can take: {@code total-timeout}, or connect plus read when unset. */
    public Duration effectiveTotalTimeout() {
        return totalTimeout != null ? totalTimeout : connectTimeout.plus(readTimeout);
    }
}
