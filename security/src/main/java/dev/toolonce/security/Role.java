package dev.toolonce.security;

import java.util.Locale;

/**
 * What a principal may do at ToolOnce's HTTP doors. {@code ADMIN} includes {@code OPERATOR}, which includes
 * {@code VIEWER}; {@code SCRAPE} reads {@code /actuator/prometheus} and nothing else ({@code ADMIN} includes it too).
 * As a Spring Security authority a role is {@code ROLE_<NAME>}.
 */
public enum Role {
    /** Reads calls, reviews, tasks, pauses, statistics and the audit of its tenants. */
    VIEWER,
    /** Also resolves reviews, approves steps, changes pending arguments and resumes tasks of its tenants. */
    OPERATOR,
    /** Also resumes paused tools and resets statistics; manages tokens (by the token file, not over HTTP). */
    ADMIN,
    /** Reads the Prometheus scrape endpoint only. */
    SCRAPE;

    /** The hierarchy as Spring Security's {@code RoleHierarchyImpl.fromHierarchy} reads it. */
    public static final String HIERARCHY = "ROLE_ADMIN > ROLE_OPERATOR\nROLE_OPERATOR > ROLE_VIEWER\nROLE_ADMIN > ROLE_SCRAPE";

    /** @return {@code ROLE_<NAME>} */
    public String authority() {
        return "ROLE_" + name();
    }

    /**
     * @param name {@code viewer}, {@code operator}, {@code admin} or {@code scrape}, any case
     * @throws IllegalArgumentException naming the roles there are
     */
    public static Role parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("unknown role '" + name + "' (roles: viewer, operator, admin, scrape)");
        }
    }
}
