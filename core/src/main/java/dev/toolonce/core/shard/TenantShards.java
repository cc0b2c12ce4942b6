package dev.toolonce.core.shard;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which ledger serves which tenant (docs/scaling.md §3): the ledger sharded by tenant across databases, each shard
 * with its own executors, intents topic and relay source. A tenant belongs to exactly one shard, so its calls — every
 * key, every retry, every compensation — are decided by one ledger and never split. One shard may name {@code *}: it
 * serves every tenant no other shard names. The same map is given to the agents (which topic an intent goes to) and
 * to the executors (which tenants they serve: an intent of another shard's tenant is refused, never planned).
 * Immutable.
 */
public final class TenantShards {
    /** Every tenant that no other shard names. */
    public static final String EVERY_OTHER_TENANT = "*";
    /** One shard for every tenant: no sharding. */
    public static final TenantShards NONE = new TenantShards(List.of());

    /** A shard: its name and the tenants it serves ({@code *}: every tenant no other shard names). */
    public record Shard(String name, Set<String> tenants) {
        public Shard {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a shard needs a name");
            }
            tenants = tenants == null ? Set.of() : Set.copyOf(tenants);
            if (tenants.isEmpty()) {
                throw new IllegalArgumentException("shard " + name + " serves no tenant: name its tenants, or *");
            }
        }
    }

    private final List<Shard> shards;
    private final Map<String, String> byTenant = new HashMap<>();
    private final String others;

    private TenantShards(List<Shard> shards) {
        this.shards = List.copyOf(shards);
        Set<String> names = new HashSet<>();
        String rest = null;
        for (Shard s : this.shards) {
            if (!names.add(s.name())) {
                throw new IllegalArgumentException("two shards are named " + s.name());
            }
            for (String tenant : s.tenants()) {
                if (EVERY_OTHER_TENANT.equals(tenant)) {
                    if (rest != null) {
                        throw new IllegalArgumentException("shards " + rest + " and " + s.name()
                                + " both serve every other tenant (*): a tenant's calls would split");
                    }
                    rest = s.name();
                } else {
                    String before = byTenant.putIfAbsent(tenant, s.name());
                    if (before != null) {
                        throw new IllegalArgumentException("tenant " + tenant + " is named by shards " + before
                                + " and " + s.name() + ": a tenant's calls must never split");
                    }
                }
            }
        }
        this.others = rest;
    }

    /** @throws IllegalArgumentException when two shards share a name or a tenant, or two serve {@code *} */
    public static TenantShards of(List<Shard> shards) {
        return shards == null || shards.isEmpty() ? NONE : new TenantShards(shards);
    }

    /** Whether there are shards at all. */
    public boolean sharded() {
        return !shards.isEmpty();
    }

    public List<Shard> shards() {
        return shards;
    }

    /** The shard serving {@code tenant}; empty when no shard does (there are shards, and none serves {@code *}). */
    public Optional<String> shardOf(String tenant) {
        String named = byTenant.get(tenant);
        return Optional.ofNullable(named != null ? named : others);
    }

    /** Whether shard {@code name} serves {@code tenant}; without shards, every tenant is served. */
    public boolean serves(String name, String tenant) {
        return !sharded() || shardOf(tenant).map(name::equals).orElse(false);
    }

    /** @throws IllegalArgumentException when {@code name} is not one of the shards */
    public void requireShard(String name) {
        List<String> names = new ArrayList<>();
        shards.forEach(s -> names.add(s.name()));
        if (sharded() && !names.contains(name)) {
            throw new IllegalArgumentException("no shard named " + name + " (the shards are " + names + ")");
        }
    }
}
