package dev.toolonce.security;

import dev.toolonce.security.token.TokenFile;
import dev.toolonce.security.web.BodyLimitFilter;
import dev.toolonce.security.web.ProblemAdvice;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.http.HttpMethod;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.access.hierarchicalroles.RoleHierarchyImpl;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.AuthenticationManagerResolver;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.method.configuration.EnableMethodSecurity;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtDecoders;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.HttpStatusRequestRejectedHandler;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * Identity at the HTTP door of every ToolOnce service (docs/security.md), and of an application on the agent starter
 * that exposes the task API:
 * <ul>
 *   <li>bearer credentials only — API tokens from {@code toolonce.security.tokens-file}, JWTs from
 *       {@code toolonce.security.jwt.*}; no sessions, no cookies, no basic or form login. CSRF protection is off
 *       because nothing here is authenticated by a cookie: a cross-site form cannot add an {@code Authorization}
 *       header, and no CORS is allowed;</li>
 *   <li>every request authenticated but the probes ({@code /ready}, {@code /live}, {@code /actuator/health} and its
 *       liveness and readiness groups); {@code /actuator/prometheus} for {@code scrape} (or {@code admin}), the other
 *       actuator endpoints for {@code admin}; each controller method names its role ({@code @PreAuthorize});</li>
 *   <li>a {@code Host} allow-list against DNS rebinding ({@code toolonce.security.allowed-hosts}), refused with 400.</li>
 * </ul>
 * An application with a {@link SecurityFilterChain} of its own keeps it: this one backs off, and the roles and
 * tenants of the controllers still apply to whatever authorities the application's chain grants.
 */
@AutoConfiguration(beforeName = {
        "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
        "org.springframework.boot.security.oauth2.server.resource.autoconfigure.servlet.OAuth2ResourceServerAutoConfiguration"})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(ToolOnceSecurityProperties.class)
public class ToolOnceSecurityAutoConfiguration {
    private static final Logger log = LoggerFactory.getLogger(ToolOnceSecurityAutoConfiguration.class);
    /** The probes a load balancer or Kubernetes calls without a credential; they reveal no tenant's data. */
    static final String[] PROBES = {"/ready", "/live", "/actuator/health", "/actuator/health/liveness",
            "/actuator/health/readiness"};

    /** problem+json for the errors of ToolOnce's own controllers. */
    @Bean
    ProblemAdvice toolonceProblemAdvice() {
        return new ProblemAdvice();
    }

    @Bean
    @ConditionalOnMissingBean
    RoleHierarchy toolonceRoleHierarchy() {
        return RoleHierarchyImpl.fromHierarchy(Role.HIERARCHY);
    }

    /** {@code @PreAuthorize} on the controllers; an application that enables method security itself keeps its own. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(name = "preAuthorizeAuthorizationMethodInterceptor")
    @EnableMethodSecurity
    static class MethodSecurity {
    }

    /** The bearer chain, unless the application has a chain of its own. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(SecurityFilterChain.class)
    @EnableWebSecurity
    static class BearerChain {

        @Bean
        AuthenticationManagerResolver<HttpServletRequest> toolonceAuthenticationManagerResolver(
                ToolOnceSecurityProperties p) {
            List<AuthenticationProvider> providers = new ArrayList<>();
            if (p.tokensFile() != null) {
                providers.add(new ApiTokenAuthenticationProvider(new TokenFile(p.tokensFile())));
                log.info("API tokens are read from {}", p.tokensFile().toAbsolutePath());
            }
            if (p.jwt().configured()) {
                JwtAuthenticationProvider jwt = new JwtAuthenticationProvider(jwtDecoder(p.jwt()));
                jwt.setJwtAuthenticationConverter(new JwtAuthorities(p.jwt()));
                providers.add(jwt);
                log.info("JWTs are accepted (roles from claim '{}', tenants from claim '{}')", p.jwt().rolesClaim(),
                        p.jwt().tenantsClaim());
            }
            if (providers.isEmpty()) {
                log.warn("neither toolonce.security.tokens-file nor toolonce.security.jwt.* is set: no credential is "
                        + "valid, and every endpoint but the probes answers 401");
                providers.add(new NoCredentialIsValid());
            }
            AuthenticationManager manager = new ProviderManager(providers);
            return request -> manager;
        }

        /** What refuses every bearer when no credential source is configured: secure by default, with a reason. */
        static final class NoCredentialIsValid implements AuthenticationProvider {
            @Override
            public Authentication authenticate(Authentication a) {
                throw new BadCredentialsException(
                        "this service has no credential source (toolonce.security.tokens-file, toolonce.security.jwt.*)");
            }

            @Override
            public boolean supports(Class<?> type) {
                return true;
            }
        }

        static JwtDecoder jwtDecoder(ToolOnceSecurityProperties.Jwt jwt) {
            if (jwt.publicKeyLocation() != null && !jwt.publicKeyLocation().isBlank()) {
                return NimbusJwtDecoder.withPublicKey(PemKeys.rsaPublicKey(
                        new DefaultResourceLoader().getResource(jwt.publicKeyLocation()))).build();
            }
            if (jwt.jwkSetUri() != null && !jwt.jwkSetUri().isBlank()) {
                return NimbusJwtDecoder.withJwkSetUri(jwt.jwkSetUri()).build();
            }
            return JwtDecoders.fromIssuerLocation(jwt.issuerUri());
        }

        @Bean
        SecurityFilterChain toolonceSecurityFilterChain(HttpSecurity http, ToolOnceSecurityProperties p,
                                                        AuthenticationManagerResolver<HttpServletRequest> managers)
                throws Exception {
            ProblemResponses problems = new ProblemResponses();
            http.securityMatcher(p.paths().toArray(String[]::new))
                    .csrf(c -> c.disable()) // bearer credentials only, never a cookie: see the class comment
                    .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                    .httpBasic(b -> b.disable())
                    .formLogin(f -> f.disable())
                    .logout(l -> l.disable())
                    .requestCache(r -> r.disable())
                    .authorizeHttpRequests(a -> a
                            .requestMatchers(HttpMethod.GET, PROBES).permitAll()
                            .requestMatchers(HttpMethod.GET, p.publicAssets().toArray(String[]::new)).permitAll()
                            .requestMatchers("/error").permitAll() // the error page of a request already let through
                            .requestMatchers("/actuator/prometheus").hasRole(Role.SCRAPE.name())
                            .requestMatchers("/actuator/**").hasRole(Role.ADMIN.name())
                            .anyRequest().authenticated())
                    .oauth2ResourceServer(o -> o.authenticationManagerResolver(managers)
                            .authenticationEntryPoint(problems).accessDeniedHandler(problems))
                    .exceptionHandling(e -> e.authenticationEntryPoint(problems).accessDeniedHandler(problems))
                    .addFilterBefore(new BodyLimitFilter(p.maxBodyBytes()),
                            BearerTokenAuthenticationFilter.class);
            if (p.contentSecurityPolicy() != null && !p.contentSecurityPolicy().isBlank()) {
                http.headers(h -> h.contentSecurityPolicy(c -> c.policyDirectives(p.contentSecurityPolicy())));
            }
            return http.build();
        }

        /** Requests naming a host not on the list are refused before any handler: a rebound DNS name cannot read. */
        @Bean
        WebSecurityCustomizer toolonceHostAllowList(ToolOnceSecurityProperties p) {
            Set<String> allowed = Set.copyOf(p.allowedHosts());
            StrictHttpFirewall firewall = new StrictHttpFirewall();
            firewall.setAllowedHostnames(allowed::contains);
            return web -> web.httpFirewall(firewall);
        }

        @Bean
        RequestRejectedHandler toolonceRequestRejectedHandler() {
            return new HttpStatusRequestRejectedHandler(400);
        }
    }
}
