package dev.toolonce.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import dev.toolonce.security.token.ApiToken;
import dev.toolonce.security.token.TokenEntry;
import dev.toolonce.security.token.TokenFile;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The bearer chain in a real servlet application on a real port: probes open, everything else 401 without a valid
 * credential (problem+json, {@code WWW-Authenticate: Bearer}), roles by {@code @PreAuthorize} with the hierarchy
 * admin > operator > viewer, tenants as authorities, a revoked token refused without a restart, JWTs signed by the
 * configured key accepted and others refused, and a foreign {@code Host} refused before any handler.
 */
class SecurityChainIT {
    private static ConfigurableApplicationContext app;
    private static String base;
    private static int port;
    private static Path tokens;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static KeyPair signer;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @RestController
        static class Things {
            @GetMapping("/ready")
            String ready() {
                return "ok";
            }

            @GetMapping("/things")
            @PreAuthorize("hasRole('VIEWER')")
            Map<String, Object> list(Authentication a) {
                TenantScope s = TenantScope.of(a);
                return Map.of("principal", a.getName(), "all", s.all(), "tenants", s.ids());
            }

            @PostMapping("/things")
            @PreAuthorize("hasRole('OPERATOR')")
            Map<String, Object> change(Authentication a) {
                return Map.of("changedBy", a.getName());
            }
        }
    }

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("security-it");
        tokens = dir.resolve("tokens");
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        signer = g.generateKeyPair();
        Path pem = dir.resolve("jwt.pem");
        Files.writeString(pem, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(signer.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n");
        app = new SpringApplicationBuilder(App.class).properties(Map.of("server.port", "0",
                "server.address", "127.0.0.1", "toolonce.security.tokens-file", tokens.toString(),
                "toolonce.security.jwt.public-key-location", "file:" + pem)).run();
        port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
        base = "http://127.0.0.1:" + port;
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    private static ApiToken token(Role role, String... tenants) throws Exception {
        ApiToken t = ApiToken.generate();
        TokenFile.add(tokens, new TokenEntry(t.id(), t.secretHash(), Set.of(role), Set.of(tenants),
                role.name().toLowerCase() + "-" + t.id()));
        await().atMost(Duration.ofSeconds(5)).until(() -> get("/things", t.toString()).statusCode() != 401);
        return t;
    }

    private static HttpResponse<String> get(String path, String bearer) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).GET();
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String path, String bearer) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).POST(HttpRequest.BodyPublishers.noBody());
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void withoutACredentialOnlyTheProbesAnswer() throws Exception {
        assertThat(get("/ready", null).statusCode()).isEqualTo(200);
        for (HttpResponse<String> r : List.of(get("/things", null), post("/things", null), get("/nothing-here", null),
                get("/things", "tot_000000000000_" + "A".repeat(43)), get("/things", "not-a-token"))) {
            assertThat(r.statusCode()).as(r.request().method() + " " + r.uri()).isEqualTo(401);
            assertThat(r.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
            assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(
                    v -> assertThat(v).startsWith("application/problem+json"));
        }
    }

    @Test
    void rolesFollowTheHierarchyAndTenantsComeWithThePrincipal() throws Exception {
        ApiToken viewer = token(Role.VIEWER, "acme");
        ApiToken operator = token(Role.OPERATOR, "acme", "globex");
        ApiToken admin = token(Role.ADMIN, "*");
        ApiToken scrape = token(Role.SCRAPE, "*");

        HttpResponse<String> seen = get("/things", viewer.toString());
        assertThat(seen.statusCode()).isEqualTo(200);
        assertThat(seen.body()).contains("\"tenants\":[\"acme\"]", "\"all\":false", "viewer-" + viewer.id());
        assertThat(post("/things", viewer.toString()).statusCode()).as("a viewer changes nothing").isEqualTo(403);
        assertThat(post("/things", operator.toString()).statusCode()).isEqualTo(200);
        assertThat(get("/things", operator.toString()).body()).contains("acme", "globex");
        assertThat(post("/things", admin.toString()).statusCode()).as("admin includes operator").isEqualTo(200);
        assertThat(get("/things", admin.toString()).body()).contains("\"all\":true");
        assertThat(get("/things", scrape.toString()).statusCode()).as("scrape reads metrics only").isEqualTo(403);
    }

    @Test
    void aRevokedTokenIsRefusedWithoutARestart() throws Exception {
        ApiToken t = token(Role.VIEWER, "acme");
        assertThat(get("/things", t.toString()).statusCode()).isEqualTo(200);

        TokenFile.revoke(tokens, t.id());

        await().atMost(Duration.ofSeconds(5)).until(() -> get("/things", t.toString()).statusCode() == 401);
    }

    @Test
    void aJwtSignedByTheConfiguredKeyIsAcceptedAndOneSignedByAnotherIsNot() throws Exception {
        String good = jwt(signer, Map.of("roles", List.of("operator", "superuser"), "tenants", List.of("acme")));
        HttpResponse<String> r = get("/things", good);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"principal\":\"alice\"", "\"tenants\":[\"acme\"]");
        assertThat(post("/things", good).statusCode()).isEqualTo(200);

        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        assertThat(get("/things", jwt(g.generateKeyPair(), Map.of("roles", List.of("admin")))).statusCode())
                .isEqualTo(401);
        assertThat(get("/things", jwt(signer, Map.of("tenants", List.of("acme")))).statusCode())
                .as("a valid JWT without a known role may read nothing").isEqualTo(403);
    }

    @Test
    void aForeignHostHeaderIsRefusedBeforeAnyHandler() throws Exception {
        ApiToken t = token(Role.OPERATOR, "acme");
        assertThat(rawStatus("127.0.0.1:" + port, t)).isEqualTo(200);
        assertThat(rawStatus("evil.example:" + port, t)).as("DNS rebinding").isEqualTo(400);
    }

    /** The JDK's client will not send a Host of our choosing: a plain socket does. */
    private static int rawStatus(String host, ApiToken t) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(("GET /things HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + t
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String status = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
            return Integer.parseInt(status.split(" ")[1]);
        }
    }

    private static String jwt(KeyPair keys, Map<String, Object> claims) {
        RSAKey jwk = new RSAKey.Builder((RSAPublicKey) keys.getPublic()).privateKey((RSAPrivateKey) keys.getPrivate())
                .build();
        NimbusJwtEncoder encoder = new NimbusJwtEncoder(new ImmutableJWKSet<>(new JWKSet(jwk)));
        JwtClaimsSet.Builder c = JwtClaimsSet.builder().subject("alice").issuedAt(Instant.now())
                .expiresAt(Instant.now().plusSeconds(300));
        claims.forEach(c::claim);
        return encoder.encode(JwtEncoderParameters.from(JwsHeader.with(SignatureAlgorithm.RS256).build(), c.build()))
                .getTokenValue();
    }
}
