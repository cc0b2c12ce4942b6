package dev.toolonce.executor.config;

import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code toolonce.executor.tools.<name>}: how to reach one tool over HTTP.
 *
 * @param baseUrl           scheme, host and port, e.g. {@code http://127.0.0.1:18080}
 * @param idempotencyHeader header that carries the provider key; null or empty for none
 * @param nativeIdempotency the provider deduplicates by that header, so a 5xx may be retried
 * @param sandboxHeaders    send {@code X-ToolOnce-Scope}/{@code X-ToolOnce-Fence} (sandbox only, never real providers)
 * @param connectTimeout    TCP connect timeout
 * @param readTimeout       time allowed for the whole response
 * @param settleDelay       wait after an unknown outcome before asking the tool what happened
 * @param operations        per operation: the request to send
 */
public record ToolProperties(
        String baseUrl,
        String idempotencyHeader,
        @DefaultValue("false") boolean nativeIdempotency,
        @DefaultValue("false") boolean sandboxHeaders,
        @DefaultValue("2s") Duration connectTimeout,
        @DefaultValue("10s") Duration readTimeout,
        @DefaultValue("1s") Duration settleDelay,
        Map<String, OperationProperties> operations) {

    public ToolProperties {
        operations = operations == null ? Map.of() : Map.copyOf(operations);
    }

    /**
     * One operation of a tool.
     *
     * @param method            HTTP method (POST by default)
     * @param path              path appended to the base URL
     * @param referenceField    body field set to the provider key (a unique external reference); nullable
     * @param externalIdPointer JSON pointer to the created object's id in the response (default {@code /id})
     * @param lookup            how to ask whether an attempt took effect; null when the tool offers no way
     */
    public record OperationProperties(
            @DefaultValue("POST") String method,
            String path,
            String referenceField,
            @DefaultValue("/id") String externalIdPointer,
            LookupProperties lookup) {
    }

    /**
     * A lookup request by provider key or reference. {@code {providerKey}} in the path is replaced by the
     * call's provider key (URL-safe by construction).
     *
     * @param method            HTTP method (GET by default)
     * @param path              path and query, e.g. {@code /payments/charges?idempotency_key={providerKey}}
     * @param foundStatus       status that means "exists" (200)
     * @param absentStatus      status that means "confirmed absent" (404)
     * @param externalIdPointer JSON pointer to the found object's id
     */
    public record LookupProperties(
            @DefaultValue("GET") String method,
            String path,
            @DefaultValue("200") int foundStatus,
            @DefaultValue("404") int absentStatus,
            @DefaultValue("/id") String externalIdPointer) {
    }

    /** True when a retry after a confirmed-absent lookup cannot create a second effect. */
    public boolean retrySafe(String operation) {
        OperationProperties op = operations.get(operation);
        return nativeIdempotency || (op != null && op.referenceField() != null && !op.referenceField().isBlank());
    }

    /** The longest one attempt can take: connect plus read. */
    public Duration totalTimeout() {
        return connectTimeout.plus(readTimeout);
    }
}
