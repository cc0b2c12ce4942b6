package dev.toolonce.core.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TenantShardsTest {
    private final TenantShards shards = TenantShards.of(List.of(new TenantShards.Shard("a", Set.of("acme", "globex")),
            new TenantShards.Shard("b", Set.of("*"))));

    @Test
    void aNamedTenantBelongsToItsShardAndEveryOtherToTheShardOfStar() {
        assertThat(shards.shardOf("acme")).hasValue("a");
        assertThat(shards.shardOf("initech")).hasValue("b");
        assertThat(shards.serves("a", "acme")).isTrue();
        assertThat(shards.serves("b", "acme")).as("a tenant is served by one shard only").isFalse();
        assertThat(shards.serves("b", "initech")).isTrue();
    }

    @Test
    void withoutAShardOfStarATenantNoShardNamesIsServedByNone() {
        TenantShards named = TenantShards.of(List.of(new TenantShards.Shard("a", Set.of("acme"))));
        assertThat(named.shardOf("initech")).isEmpty();
        assertThat(named.serves("a", "initech")).isFalse();
    }

    @Test
    void withoutShardsEveryExecutorServesEveryTenant() {
        assertThat(TenantShards.NONE.serves("anything", "acme")).isTrue();
        assertThat(TenantShards.of(List.of())).isSameAs(TenantShards.NONE);
    }

    @Test
    void aMapThatWouldSplitATenantsCallsIsRefused() {
        assertThatThrownBy(() -> TenantShards.of(List.of(new TenantShards.Shard("a", Set.of("acme")),
                new TenantShards.Shard("b", Set.of("acme"))))).hasMessageContaining("never split");
        assertThatThrownBy(() -> TenantShards.of(List.of(new TenantShards.Shard("a", Set.of("*")),
                new TenantShards.Shard("b", Set.of("*"))))).hasMessageContaining("every other tenant");
        assertThatThrownBy(() -> TenantShards.of(List.of(new TenantShards.Shard("a", Set.of("x")),
                new TenantShards.Shard("a", Set.of("y"))))).hasMessageContaining("two shards");
        assertThatThrownBy(() -> new TenantShards.Shard("a", Set.of())).hasMessageContaining("no tenant");
        assertThatThrownBy(() -> shards.requireShard("c")).hasMessageContaining("no shard named c");
    }
}
