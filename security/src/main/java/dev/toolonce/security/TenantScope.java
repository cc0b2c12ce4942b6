package dev.toolonce.security;

import java.util.Set;
import java.util.TreeSet;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;

/**
 * The tenants an authenticated principal may read and act for, from its {@code TENANT_<id>} authorities
 * ({@code TENANT_*}: every tenant). Another tenant's call or task is answered 404, as if it did not exist.
 *
 * @param all whether every tenant is included
 * @param ids the included tenant ids when not {@code all}
 */
public record TenantScope(boolean all, Set<String> ids) {
    public static final String AUTHORITY_PREFIX = "TENANT_";

    public TenantScope {
        ids = Set.copyOf(ids);
    }

    /** @return the scope of {@code auth}; no tenant authority at all means no tenant */
    public static TenantScope of(Authentication auth) {
        Set<String> ids = new TreeSet<>();
        if (auth != null) {
            for (GrantedAuthority a : auth.getAuthorities()) {
                String s = a.getAuthority();
                if (s != null && s.startsWith(AUTHORITY_PREFIX)) {
                    ids.add(s.substring(AUTHORITY_PREFIX.length()));
                }
            }
        }
        return ids.contains("*") ? new TenantScope(true, Set.of()) : new TenantScope(false, ids);
    }

    /** @return whether {@code tenantId} is in the scope */
    public boolean includes(String tenantId) {
        return all || (tenantId != null && ids.contains(tenantId));
    }

    /** @return the ids as an array for {@code = ANY(?)}, or null when every tenant is included */
    public String[] sqlFilter() {
        return all ? null : ids.toArray(String[]::new);
    }
}
