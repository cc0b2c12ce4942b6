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
 * @param operations        per operation: the request to send
 */
public record ToolProperties(
        String baseUrl,
        String idempotencyHeader,
        @DefaultValue("false") boolean nativeIdempotency,
        @DefaultValue("false") boolean sandboxHeaders,
        @DefaultValue("2s") Duration connectTimeout,
        @DefaultValue("10s") Duration readTimeout,
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
     */
    public record OperationProperties(
            @DefaultValue("POST") String method,
            String path,
            String referenceField,
            @DefaultValue("/id") String externalIdPointer) {
    }
}
