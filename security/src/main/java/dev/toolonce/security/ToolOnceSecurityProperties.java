package dev.toolonce.security;

import java.nio.file.Path;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code toolonce.security.*}: who may call a ToolOnce service over HTTP (docs/security.md). With neither a token
 * file nor a JWT issuer configured, no credential is valid and every endpoint but the probes answers 401.
 *
 * @param tokensFile   the API token file ({@code ./toolonce tokens create} writes it; only hashes), or null
 * @param allowedHosts host names a request's {@code Host} may name; any other is refused with 400 (DNS rebinding)
 * @param paths        the paths this service's filter chain guards (an application on the starter may narrow it
 *                     to {@code /tasks/**} and secure the rest itself)
 * @param jwt          OAuth2/OIDC bearer JWTs, for production identities
 * @param maxBodyBytes the largest request body accepted (larger: 413)
 * @param publicAssets GET paths served without a credential because they hold no data: a web page and its scripts
 *                     (the executor's console), which then call the API with the operator's own token. Nothing by
 *                     default.
 * @param contentSecurityPolicy the {@code Content-Security-Policy} header of every response, for a service that
 *                     serves a page (the executor's console); none by default, so that an application on the starter
 *                     keeps its own pages' policy
 */
@ConfigurationProperties("toolonce.security")
public record ToolOnceSecurityProperties(
        Path tokensFile,
        @DefaultValue({"localhost", "127.0.0.1", "::1", "[::1]"}) List<String> allowedHosts,
        @DefaultValue("/**") List<String> paths,
        @DefaultValue Jwt jwt,
        @DefaultValue("65536") long maxBodyBytes,
        List<String> publicAssets,
        String contentSecurityPolicy) {

    public ToolOnceSecurityProperties {
        if (tokensFile != null && tokensFile.toString().isBlank()) {
            tokensFile = null; // "${TOOLONCE_TOKENS_FILE:}" with the variable unset: no token file, not the directory
        }
        allowedHosts = List.copyOf(allowedHosts);
        paths = List.copyOf(paths);
        publicAssets = publicAssets == null ? List.of() : List.copyOf(publicAssets);
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("toolonce.security.paths must name at least one path pattern");
        }
    }

    /**
     * @param issuerUri         OIDC issuer; its discovery document names the keys (and the {@code iss} is checked)
     * @param jwkSetUri         the issuer's JWK set, when there is no discovery
     * @param publicKeyLocation an RSA public key (PEM, {@code file:} or {@code classpath:}), for a fixed key
     * @param rolesClaim        claim holding the roles (a list or a space-separated string)
     * @param tenantsClaim      claim holding the tenant ids ({@code *} for all)
     * @param principalClaim    claim naming the principal the audit records
     */
    public record Jwt(String issuerUri, String jwkSetUri, String publicKeyLocation,
                      @DefaultValue("roles") String rolesClaim, @DefaultValue("tenants") String tenantsClaim,
                      @DefaultValue("sub") String principalClaim) {

        /** @return whether any JWT key source is configured */
        public boolean configured() {
            return present(issuerUri) || present(jwkSetUri) || present(publicKeyLocation);
        }

        private static boolean present(String s) {
            return s != null && !s.isBlank();
        }
    }
}
