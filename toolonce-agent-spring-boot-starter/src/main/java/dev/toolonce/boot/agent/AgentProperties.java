package dev.toolonce.boot.agent;

import dev.toolonce.agent.task.DryRunCatalog;
import java.time.Duration;
import dev.toolonce.core.shard.TenantShards;
import java.util.List;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code toolonce.agent.*}: the agent side of ToolOnce in an application (docs/agent-tasks.md).
 *
 * @param schema          the agent's schema: {@code agent_step}, {@code agent_task*}, {@code inbox_message},
 *                        {@code outbox_event}; created and migrated by the starter
 * @param publication     the logical-replication publication of the agent outbox, which the relay reads
 * @param source          {@code ce_source} of the agent's intents and task events, e.g. {@code /agents/checkout}
 * @param intentsTopic    where intents go (through the outbox and the relay)
 * @param resultsTopic    the consumed result topic
 * @param deadLetterTopic where unreadable result records go, synchronously
 * @param tasksTopic      where task events go (through the outbox and the relay)
 * @param consumerGroup   the inbox's consumer group, also the Kafka group id
 * @param poisonAttempts  times a result that fails on its own is tried before it is dead-lettered
 * @param consumer        whether this application consumes results (false: another process, e.g. inbox-consumer, does)
 * @param resumeOnStart   resume every open task at start-up (re-publishes steps in flight with their original keys)
 * @param api             expose {@code /tasks} (needs Spring MVC and {@code dev.toolonce:security}, and a credential
 *                        source: {@code toolonce.security.tokens-file} or {@code toolonce.security.jwt.*}, or a
 *                        Spring Security chain of the application's own); off by default, since it approves and
 *                        changes pending tool calls
 * @param dryRuns         {@code tool/operation} entries whose tool declares a dry run in the executor's tool
 *                        configuration ({@code operations.<op>.dry-run}); a plan may ask for a dry run only of these
 * @param callsPoll       how often {@code ToolCalls} reads the rows of the calls it waits for (an answer applied by
 *                        another instance of the application is seen within this; one applied here at once)
 * @param shards          when the executors' ledger is sharded by tenant (docs/scaling.md §3): each shard's name,
 *                        intents topic and tenants ({@code *}: every tenant no other shard names), the map the
 *                        executors are given; an intent goes to its tenant's shard's topic instead of
 *                        {@code intents-topic}
 * @param offsetCommitInterval how often the result consumer commits the offsets it has processed (0: after every
 *                        batch); a crash redelivers at most about this much, which the inbox answers as duplicates
 */
@ConfigurationProperties("toolonce.agent")
public record AgentProperties(
        @DefaultValue("agent") String schema,
        @DefaultValue("toolonce_agent_outbox") String publication,
        @DefaultValue("/agents/agent") String source,
        @DefaultValue("toolonce.tool-intents") String intentsTopic,
        @DefaultValue("toolonce.tool-results") String resultsTopic,
        @DefaultValue("toolonce.tool-results.dlq") String deadLetterTopic,
        @DefaultValue("toolonce.agent-tasks") String tasksTopic,
        @DefaultValue("toolonce-agent") String consumerGroup,
        @DefaultValue("3") int poisonAttempts,
        @DefaultValue("true") boolean consumer,
        @DefaultValue("true") boolean resumeOnStart,
        @DefaultValue("false") boolean api,
        List<String> dryRuns,
        @DefaultValue("200ms") Duration callsPoll,
        List<Shard> shards,
        @DefaultValue("1s") Duration offsetCommitInterval) {

    /** One shard of a ledger sharded by tenant: its name, its intents topic, its tenants. */
    public record Shard(String name, String intentsTopic, Set<String> tenants) {
    }

    /** The shards as the executors know them. */
    public TenantShards tenantShards() {
        return map(shards);
    }

    private static TenantShards map(List<Shard> shards) {
        return TenantShards.of(shards.stream().map(s -> new TenantShards.Shard(s.name(), s.tenants())).toList());
    }

    public AgentProperties {
        shards = shards == null ? List.of() : List.copyOf(shards);
        try {
            map(shards);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("toolonce.agent.shards: " + e.getMessage(), e);
        }
        dryRuns = dryRuns == null ? List.of() : List.copyOf(dryRuns);
        try {
            DryRunCatalog.of(dryRuns);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("toolonce.agent.dry-runs: " + e.getMessage(), e);
        }
        if (callsPoll.isNegative() || callsPoll.isZero()) {
            throw new IllegalArgumentException("toolonce.agent.calls-poll must be positive (is " + callsPoll + ")");
        }
        if (offsetCommitInterval.isNegative()) {
            throw new IllegalArgumentException("toolonce.agent.offset-commit-interval must be zero or more (is "
                    + offsetCommitInterval + ")");
        }
        if (poisonAttempts < 1) {
            throw new IllegalArgumentException("toolonce.agent.poison-attempts must be >= 1 (is " + poisonAttempts + ")");
        }
        if (schema == null || !schema.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("toolonce.agent.schema must be a plain lower-case SQL identifier (is "
                    + schema + ")");
        }
    }
}
