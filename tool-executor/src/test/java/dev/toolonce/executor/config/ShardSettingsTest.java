package dev.toolonce.executor.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The executor's shard settings as Spring binds them (docs/scaling.md §3): a map that cannot split a tenant. */
class ShardSettingsTest {
    private static final Map<String, String> MAP = Map.of(
            "toolonce.executor.shards[0].name", "a", "toolonce.executor.shards[0].tenants[0]", "acme",
            "toolonce.executor.shards[1].name", "b", "toolonce.executor.shards[1].tenants", "*");

    @Test
    void aShardServesItsTenantsAndTheShardOfStarEveryOther() {
        ExecutorProperties a = bind(with(MAP, "toolonce.executor.shard", "a",
                "toolonce.executor.consumer-group", "toolonce-executor-a"));
        assertThat(a.tenantShards().serves("a", "acme")).isTrue();
        assertThat(a.tenantShards().serves("a", "globex")).isFalse();
        assertThat(a.tenantShards().shardOf("globex")).hasValue("b");
    }

    @Test
    void settingsThatWouldServeATenantTwiceOrEveryTenantWithoutAMapAreRefused() {
        assertThatThrownBy(() -> bind(with(MAP, "toolonce.executor.consumer-group", "g")))
                .rootCause().hasMessageContaining("toolonce.executor.shard must name");
        assertThatThrownBy(() -> bind(with(MAP, "toolonce.executor.shard", "a")))
                .rootCause().hasMessageContaining("consumer group of its own");
        assertThatThrownBy(() -> bind(Map.of("toolonce.executor.shard", "a")))
                .rootCause().hasMessageContaining("would serve every tenant");
        assertThatThrownBy(() -> bind(with(MAP, "toolonce.executor.shard", "c",
                "toolonce.executor.consumer-group", "g"))).rootCause().hasMessageContaining("no shard named c");
        assertThatThrownBy(() -> bind(with(MAP, "toolonce.executor.shards[1].tenants", "acme",
                "toolonce.executor.shard", "a", "toolonce.executor.consumer-group", "g")))
                .rootCause().hasMessageContaining("never split");
    }

    @Test
    void withoutShardsEveryTenantIsServed() {
        assertThat(bind(Map.of()).tenantShards().serves(null, "anyone")).isTrue();
    }

    private static Map<String, String> with(Map<String, String> base, String... more) {
        Map<String, String> m = new HashMap<>(base);
        for (int i = 0; i < more.length; i += 2) {
            m.put(more[i], more[i + 1]);
        }
        return m;
    }

    private static ExecutorProperties bind(Map<String, String> props) {
        return new Binder(new MapConfigurationPropertySource(props)).bindOrCreate("toolonce.executor",
                ExecutorProperties.class);
    }
}
