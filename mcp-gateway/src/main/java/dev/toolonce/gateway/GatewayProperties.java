package dev.toolonce.gateway;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code toolonce.gateway.*}.
 *
 * @param executorUrl      the executor whose {@code /executor/catalogue} lists the tools
 * @param catalogueToken   a viewer token for the catalogue
 * @param catalogueWait    how long the start waits for an executor that cannot be reached yet (or answers 502-504)
 *                         before it fails; a refusal (401, 403) fails at once
 * @param tools            {@code tool/operation} entries to offer; empty for the whole catalogue
 * @param answerWait       how long a {@code tools/call} waits for the answer before it answers pending
 * @param progressEvery    how often a waiting call sends a progress notification (when the client asked for them)
 * @param authorizationServers the OAuth authorization servers named in the protected resource metadata (RFC 9728)
 */
@ConfigurationProperties("toolonce.gateway")
public record GatewayProperties(
        String executorUrl,
        String catalogueToken,
        @DefaultValue("2m") Duration catalogueWait,
        List<String> tools,
        @DefaultValue("30s") Duration answerWait,
        @DefaultValue("1s") Duration progressEvery,
        List<String> authorizationServers) {

    public GatewayProperties {
        tools = tools == null ? List.of() : List.copyOf(tools);
        authorizationServers = authorizationServers == null ? List.of() : List.copyOf(authorizationServers);
        if (executorUrl == null || executorUrl.isBlank()) {
            throw new IllegalArgumentException("toolonce.gateway.executor-url must name the executor");
        }
        if (catalogueToken == null || catalogueToken.isBlank()) {
            throw new IllegalArgumentException("toolonce.gateway.catalogue-token must be a viewer token");
        }
    }
}
