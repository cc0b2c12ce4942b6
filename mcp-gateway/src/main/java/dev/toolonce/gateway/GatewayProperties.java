package dev.toolonce.gateway;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code toolonce.gateway.*}.
 *
 * @param executorUrl      the executor whose {@code /executor/catalogue} lists the tools
 * @param catalogueToken   a viewer token for the catalogue; read from {@code catalogueTokenFile} when that is given
 * @param catalogueTokenFile a file holding that token (a mounted secret, e.g. {@code /etc/toolonce/catalogue.token}):
 *                         neither in the environment nor on a command line, where {@code ps}, {@code podman inspect}
 *                         and compose logs show it
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
        Path catalogueTokenFile,
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
        boolean inline = catalogueToken != null && !catalogueToken.isBlank();
        if (inline && catalogueTokenFile != null) {
            throw new IllegalArgumentException("toolonce.gateway.catalogue-token and catalogue-token-file are both set: "
                    + "set one");
        }
        if (catalogueTokenFile != null) {
            catalogueToken = read(catalogueTokenFile);
        } else if (!inline) {
            throw new IllegalArgumentException("toolonce.gateway.catalogue-token (or catalogue-token-file) must give a "
                    + "viewer token");
        }
    }

    private static String read(Path file) {
        try {
            String token = Files.readString(file).strip();
            if (token.isEmpty()) {
                throw new IllegalArgumentException("toolonce.gateway.catalogue-token-file=" + file + " is empty");
            }
            return token;
        } catch (IOException e) {
            throw new IllegalArgumentException("toolonce.gateway.catalogue-token-file=" + file + ": cannot read it ("
                    + e + ")", e);
        }
    }

    /** Without the token: these properties may be logged, the token must not. */
    @Override
    public String toString() {
        return "GatewayProperties[executorUrl=" + executorUrl + ", catalogueToken=(hidden), catalogueTokenFile="
                + catalogueTokenFile + ", catalogueWait=" + catalogueWait + ", tools=" + tools + ", answerWait="
                + answerWait + ", progressEvery=" + progressEvery + ", authorizationServers=" + authorizationServers
                + "]";
    }
}
