package dev.toolonce.executor.config;

import java.time.Duration;
import dev.toolonce.core.shard.TenantShards;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code toolonce.executor.*}.
 *
 * @param schema           database schema of the ledger, inbox and outbox (default {@code executor})
 * @param source           {@code ce_source} of the result events
 * @param intentsTopic     consumed topic of tool intents
 * @param resultsTopic     topic the result events go to (through the outbox)
 * @param deadLetterTopic  where intents that never reach the database go, synchronously
 * @param tasksDeadLetterTopic where task events that cannot be read or applied go, synchronously
 * @param consumerGroup    the inbox's consumer group name (also the Kafka group id)
 * @param workers          concurrent tool calls (size of the dispatch pool)
 * @param claimBatch       most calls claimed by one claim statement
 * @param lease            how long a claim holds a call before its outcome counts as unknown
 * @param maxAttempts      attempts before a confirmed-absent call becomes FAILED_FINAL
 * @param retryBase        first backoff of a retryable failure
 * @param retryCap         longest backoff
 * @param retryBudgetPerMinute most retries of one tool started per minute; more wait for the next minute
 * @param maxPayloadBytes  intents larger than this are dead-lettered with {@code PAYLOAD_TOO_LARGE}
 * @param idlePoll         how often the dispatcher looks for due work when nobody wakes it
 * @param heartbeat        how often running calls' leases are extended
 * @param leaseMargin      slack required on top of a tool's timeouts and two heartbeats within the lease
 * @param reconcileInterval how often the sweeper and reconciler run
 * @param retention        how long terminal calls and inbox rows are kept (docs/protocol.md §13)
 * @param retentionMargin  intents older than {@code retention - margin} are refused as expired
 * @param allowInfiniteTopicRetention accept consumed topics with retention.ms = -1 (an explicit override)
 * @param poisonAttempts   times a record that fails on its own is tried before it is dead-lettered
 * @param committers       threads that commit completions, each a group of calls per transaction
 * @param commitGroup      most completions one transaction records
 * @param startAtIntake    claim the calls intake plans in intake's own transaction when workers are free and no call
 *                         waits for one, instead of leaving every call to the dispatcher's claim (docs/protocol.md §19)
 * @param tools            the tools this executor may call, by name
 * @param shard            the shard this executor's ledger is, when the ledger is sharded by tenant (docs/scaling.md
 *                         §3); required with {@code shards}
 * @param shards           every shard and the tenants it serves (one may serve {@code *}, every tenant no other
 *                         names): the same map the agents route intents by. An intent of a tenant this shard does not
 *                         serve is refused {@code TENANT_NOT_SERVED}, never planned. Empty: every tenant is served.
 */
@ConfigurationProperties("toolonce.executor")
public record ExecutorProperties(
        @DefaultValue("executor") String schema,
        @DefaultValue("/toolonce/tool-executor") String source,
        @DefaultValue("toolonce.tool-intents") String intentsTopic,
        @DefaultValue("toolonce.tool-results") String resultsTopic,
        @DefaultValue("toolonce.tool-intents.dlq") String deadLetterTopic,
        @DefaultValue("toolonce.agent-tasks.dlq") String tasksDeadLetterTopic,
        @DefaultValue("toolonce-executor") String consumerGroup,
        @DefaultValue("256") int workers,
        @DefaultValue("64") int claimBatch,
        @DefaultValue("60s") Duration lease,
        @DefaultValue("5") int maxAttempts,
        @DefaultValue("200ms") Duration retryBase,
        @DefaultValue("30s") Duration retryCap,
        @DefaultValue("600") int retryBudgetPerMinute,
        @DefaultValue("262144") int maxPayloadBytes,
        @DefaultValue("200ms") Duration idlePoll,
        @DefaultValue("5s") Duration heartbeat,
        @DefaultValue("2s") Duration leaseMargin,
        @DefaultValue("500ms") Duration reconcileInterval,
        @DefaultValue("8d") Duration retention,
        @DefaultValue("1d") Duration retentionMargin,
        @DefaultValue("false") boolean allowInfiniteTopicRetention,
        @DefaultValue("3") int poisonAttempts,
        @DefaultValue("2") int committers,
        @DefaultValue("256") int commitGroup,
        @DefaultValue("true") boolean startAtIntake,
        Map<String, ToolProperties> tools,
        String shard,
        List<TenantShards.Shard> shards) {

    public ExecutorProperties {
        tools = tools == null ? Map.of() : Map.copyOf(tools);
        shards = shards == null ? List.of() : List.copyOf(shards);
        TenantShards map = TenantShards.of(shards); // refuses a map that would split a tenant
        if (map.sharded()) {
            if (shard == null || shard.isBlank()) {
                throw new IllegalArgumentException("toolonce.executor.shards is set: toolonce.executor.shard must name "
                        + "which of them this executor's ledger is");
            }
            map.requireShard(shard);
            if ("toolonce-executor".equals(consumerGroup)) {
                // the intents' and the task events' groups derive from it: shards sharing one would split
                // toolonce.agent-tasks between them, and each ledger would miss some tasks' holds
                throw new IllegalArgumentException("toolonce.executor.shards is set: give each shard a consumer group "
                        + "of its own (toolonce.executor.consumer-group, e.g. toolonce-executor-" + shard + ")");
            }
        } else if (shard != null && !shard.isBlank()) {
            throw new IllegalArgumentException("toolonce.executor.shard is " + shard + " but toolonce.executor.shards "
                    + "is not set: without the map this executor would serve every tenant");
        }
        if (workers < 1 || claimBatch < 1 || committers < 1 || commitGroup < 1) {
            throw new IllegalArgumentException(
                    "toolonce.executor.workers, claim-batch, committers and commit-group must be >= 1");
        }
        if (poisonAttempts < 1) {
            throw new IllegalArgumentException("toolonce.executor.poison-attempts must be >= 1 (is " + poisonAttempts + ")");
        }
        checkLeases(tools, lease, heartbeat, leaseMargin);
        if (retentionMargin.compareTo(retention) >= 0) {
            throw new IllegalArgumentException("toolonce.executor.retention-margin " + retentionMargin
                    + " must be shorter than toolonce.executor.retention " + retention);
        }
    }

    /** The tenants' shards (docs/scaling.md §3); {@link TenantShards#NONE} when the ledger is not sharded. */
    public TenantShards tenantShards() {
        return TenantShards.of(shards);
    }

    /** Intents requested longer ago than this are refused with {@code IDEMPOTENCY_KEY_EXPIRED}. */
    public Duration acceptanceWindow() {
        return retention.minus(retentionMargin);
    }

    /** The longest a call can keep being retried: every attempt waiting the longest backoff. */
    public Duration retryHorizon() {
        return retryCap.multipliedBy(maxAttempts);
    }

    /**
     * docs/protocol.md §7: for every tool, {@code total timeout + 2 × heartbeat + margin < lease}, or a
     * healthy but slow call would be swept as unknown while it still runs.
     *
     * @throws IllegalArgumentException naming the tool and the numbers
     */
    static void checkLeases(Map<String, ToolProperties> tools, Duration lease, Duration heartbeat, Duration margin) {
        tools.forEach((name, tool) -> {
            Duration needed = tool.effectiveTotalTimeout().plus(heartbeat.multipliedBy(2)).plus(margin);
            if (needed.compareTo(lease) >= 0) {
                throw new IllegalArgumentException("tool '" + name + "': total-timeout " + tool.effectiveTotalTimeout()
                        + " (connect-timeout " + tool.connectTimeout() + " + read-timeout " + tool.readTimeout()
                        + " unless set) + 2 x heartbeat " + heartbeat + " + margin " + margin + " = " + needed
                        + " is not below toolonce.executor.lease " + lease
                        + "; raise the lease or lower the tool's timeouts");
            }
        });
    }
}
