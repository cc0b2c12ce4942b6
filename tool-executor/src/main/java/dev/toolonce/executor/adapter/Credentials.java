package dev.toolonce.executor.adapter;

import dev.toolonce.core.outcome.ToolOutcome.Pause;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A tool's credentials (docs/adapters.md §6): the shared one, sent for every tenant not listed, and the tenants' own.
 * Which one a call is sent with decides whose calls wait when the tool refuses it: a tenant's own credential pauses
 * the tool for that tenant, the shared one (or none at all) for every tenant. {@link #redact} removes every one of the
 * tool's secrets, whichever tenant's call the text comes from: a provider may echo any of them.
 */
final class Credentials {
    /** A tool without a credential: nothing is sent, and a refusal pauses the tool for every tenant. */
    static final Credentials NONE = new Credentials(null, Map.of());

    /** The credential a call is sent with, and whom a refusal of it pauses the tool for. */
    record Choice(Credential credential, Pause pause) {
    }

    private final Credential shared;
    private final Map<String, Credential> tenants;
    /** Longest first, so that a secret containing another is masked whole. */
    private final List<String> secrets;

    /**
     * @param shared  the credential of every tenant not in {@code tenants}; null for none
     * @param tenants tenant id → that tenant's own credential
     */
    Credentials(Credential shared, Map<String, Credential> tenants) {
        this.shared = shared;
        this.tenants = Map.copyOf(tenants);
        this.secrets = Stream.concat(Stream.ofNullable(shared), this.tenants.values().stream()).map(Credential::secret)
                .distinct().sorted(Comparator.comparingInt(String::length).reversed()).toList();
    }

    /** @return the tenant's own credential (pausing for that tenant), else the shared one (pausing for every tenant) */
    Choice forTenant(String tenantId) {
        Credential own = tenants.get(tenantId);
        return own != null ? new Choice(own, Pause.TENANT) : new Choice(shared, Pause.EVERY_TENANT);
    }

    /** @return {@code text} with every occurrence of any of the tool's secrets masked; null stays null */
    String redact(String text) {
        if (text == null) {
            return null;
        }
        String out = text;
        for (String secret : secrets) {
            out = out.replace(secret, Credential.MASK);
        }
        return out;
    }

    /** Masked: headers and tenant ids, never a secret. */
    @Override
    public String toString() {
        if (shared == null && tenants.isEmpty()) {
            return "no credential";
        }
        StringBuilder s = new StringBuilder(String.valueOf(shared));
        new TreeMap<>(tenants).forEach((tenant, c) -> s.append(", tenant ").append(tenant).append(' ').append(c));
        return s.toString();
    }
}
