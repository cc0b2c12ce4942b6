package dev.toolonce.security;

import dev.toolonce.security.token.ApiToken;
import dev.toolonce.security.token.TokenEntry;
import dev.toolonce.security.token.TokenFile;
import java.util.ArrayList;
import java.util.List;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;

/**
 * Authenticates {@code Authorization: Bearer tot_…} against the token file. A bearer that does not have an API token's
 * shape is left to the next provider (a JWT); one that has it but is unknown, revoked or wrong is refused.
 */
public final class ApiTokenAuthenticationProvider implements AuthenticationProvider {
    private final TokenFile tokens;

    public ApiTokenAuthenticationProvider(TokenFile tokens) {
        this.tokens = tokens;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        String bearer = ((BearerTokenAuthenticationToken) authentication).getToken();
        ApiToken token = ApiToken.parse(bearer).orElse(null);
        if (token == null) {
            return null;
        }
        TokenEntry e = tokens.verify(token).orElseThrow(() -> new BadCredentialsException(
                "unknown or revoked API token " + token.id()));
        List<GrantedAuthority> authorities = new ArrayList<>();
        e.roles().forEach(r -> authorities.add(new SimpleGrantedAuthority(r.authority())));
        e.tenants().forEach(t -> authorities.add(new SimpleGrantedAuthority(TenantScope.AUTHORITY_PREFIX + t)));
        UsernamePasswordAuthenticationToken auth = UsernamePasswordAuthenticationToken.authenticated(e.name(), null,
                authorities);
        auth.setDetails("api-token " + e.id());
        return auth;
    }

    @Override
    public boolean supports(Class<?> type) {
        return BearerTokenAuthenticationToken.class.isAssignableFrom(type);
    }
}
