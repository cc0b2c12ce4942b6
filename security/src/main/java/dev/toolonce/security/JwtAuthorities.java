package dev.toolonce.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

/**
 * A verified JWT's claims as ToolOnce authorities: every known role of the roles claim as {@code ROLE_<NAME>} (unknown
 * ones are ignored, never mapped to something else), every tenant of the tenants claim as {@code TENANT_<id>}, the
 * principal claim as the name the audit records.
 */
public final class JwtAuthorities implements Converter<Jwt, AbstractAuthenticationToken> {
    private final ToolOnceSecurityProperties.Jwt config;

    public JwtAuthorities(ToolOnceSecurityProperties.Jwt config) {
        this.config = config;
    }

    @Override
    public AbstractAuthenticationToken convert(Jwt jwt) {
        List<GrantedAuthority> authorities = new ArrayList<>();
        for (String r : values(jwt.getClaim(config.rolesClaim()))) {
            try {
                authorities.add(new SimpleGrantedAuthority(Role.parse(r).authority()));
            } catch (IllegalArgumentException ignored) {
                // a role of the identity provider that means nothing here grants nothing here
            }
        }
        for (String t : values(jwt.getClaim(config.tenantsClaim()))) {
            authorities.add(new SimpleGrantedAuthority(TenantScope.AUTHORITY_PREFIX + t));
        }
        String name = jwt.getClaimAsString(config.principalClaim());
        return new JwtAuthenticationToken(jwt, authorities, name == null ? jwt.getSubject() : name);
    }

    private static List<String> values(Object claim) {
        List<String> out = new ArrayList<>();
        if (claim instanceof Collection<?> c) {
            c.forEach(v -> out.add(String.valueOf(v)));
        } else if (claim instanceof String s) {
            for (String v : s.trim().split("\\s+")) {
                if (!v.isEmpty()) {
                    out.add(v);
                }
            }
        }
        return out;
    }
}
