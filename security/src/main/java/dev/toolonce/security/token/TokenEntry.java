package dev.toolonce.security.token;

import dev.toolonce.security.Role;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One line of the token file: {@code id:sha256(secret):roles:tenants:name}, roles and tenants comma-separated,
 * {@code *} for every tenant. The file holds no secret.
 *
 * @param id         the token's public id
 * @param secretHash SHA-256 of the token's secret, hex
 * @param roles      at least one
 * @param tenants    at least one tenant id, or {@code *}
 * @param name       the principal the audit records
 */
public record TokenEntry(String id, String secretHash, Set<Role> roles, Set<String> tenants, String name) {
    /** Tenant ids and principal names: what the ledger's identifiers allow, and nothing a line's syntax uses. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@+-]{1,128}");
    public static final String ALL_TENANTS = "*";

    public TokenEntry {
        if (!id.matches("[0-9a-f]{12}") || !secretHash.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("malformed token id or hash");
        }
        if (roles.isEmpty() || tenants.isEmpty()) {
            throw new IllegalArgumentException("a token needs at least one role and one tenant (or *)");
        }
        for (String t : tenants) {
            if (!t.equals(ALL_TENANTS) && !NAME.matcher(t).matches()) {
                throw new IllegalArgumentException("tenant '" + t + "' must match " + NAME.pattern() + " (or be *)");
            }
        }
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("name '" + name + "' must match " + NAME.pattern());
        }
        roles = Set.copyOf(roles);
        tenants = Set.copyOf(tenants);
    }

    /** @throws IllegalArgumentException when the line is not a token entry */
    public static TokenEntry parse(String line) {
        String[] f = line.trim().split(":", -1);
        if (f.length != 5) {
            throw new IllegalArgumentException("a token line has 5 fields (id:hash:roles:tenants:name), this one "
                    + f.length);
        }
        Set<Role> roles = Arrays.stream(f[2].split(",")).map(Role::parse).collect(Collectors.toCollection(LinkedHashSet::new));
        Set<String> tenants = Arrays.stream(f[3].split(",")).map(String::trim).collect(Collectors.toCollection(LinkedHashSet::new));
        return new TokenEntry(f[0], f[1], roles, tenants, f[4]);
    }

    /** @return this entry as a line of the token file */
    public String line() {
        return String.join(":", id, secretHash,
                roles.stream().map(r -> r.name().toLowerCase(java.util.Locale.ROOT)).sorted().collect(Collectors.joining(",")),
                tenants.stream().sorted().collect(Collectors.joining(",")), name);
    }
}
