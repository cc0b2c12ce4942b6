package dev.toolonce.executor.retention;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * docs/protocol.md §13: the ledger must remember a call at least as long as Kafka can redeliver its intent
 * (topic retention, the DLQ's included) plus the retry horizon; otherwise a redelivery after the purge
 * would execute again. Reads the real {@code retention.ms} of every consumed topic with the AdminClient.
 */
public final class RetentionGuard {
    private static final Logger log = LoggerFactory.getLogger(RetentionGuard.class);

    private final Map<String, Object> adminConfig;
    private final List<String> topics;
    private final Duration retention;
    private final Duration retryHorizon;
    private final boolean allowInfinite;
    private volatile String problem;

    public RetentionGuard(Map<String, Object> adminConfig, List<String> topics, Duration retention,
                          Duration retryHorizon, boolean allowInfinite) {
        this.adminConfig = adminConfig;
        this.topics = List.copyOf(topics);
        this.retention = retention;
        this.retryHorizon = retryHorizon;
        this.allowInfinite = allowInfinite;
    }

    /** @throws IllegalStateException naming the topic and both numbers when retention is unsafe */
    public void check() {
        List<String> problems = problems(readRetentions());
        problem = problems.isEmpty() ? null : String.join("; ", problems);
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
    }

    /** Periodic re-check: logs instead of throwing; {@link #problem()} tells the last verdict. */
    public void recheck() {
        try {
            check();
        } catch (RuntimeException e) {
            log.error("retention is no longer safe: {}", e.getMessage());
        }
    }

    /** The last unsafe finding, or null when the last check passed. */
    public String problem() {
        return problem;
    }

    /** Pure verdict over topic → retention.ms; public for unit tests. */
    public List<String> problems(Map<String, Long> retentionMs) {
        List<String> out = new ArrayList<>();
        Duration needed = retryHorizon;
        retentionMs.forEach((topic, ms) -> {
            if (ms < 0 && !allowInfinite) {
                out.add("topic " + topic + " keeps records for ever (retention.ms=-1) but toolonce.executor.retention is "
                        + retention + ": set a finite topic retention or toolonce.executor.allow-infinite-topic-retention=true");
            } else if (ms >= 0 && retention.compareTo(Duration.ofMillis(ms).plus(needed)) < 0) {
                out.add("toolonce.executor.retention " + retention + " (" + retention.toMillis() + " ms) is shorter than topic "
                        + topic + " retention.ms " + ms + " plus the retry horizon " + needed
                        + ": raise toolonce.executor.retention to at least " + Duration.ofMillis(ms).plus(needed));
            }
        });
        return out;
    }

    private Map<String, Long> readRetentions() {
        List<ConfigResource> resources = topics.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
        try (Admin admin = Admin.create(adminConfig)) {
            Map<ConfigResource, Config> configs = admin.describeConfigs(resources).all().get(30, TimeUnit.SECONDS);
            Map<String, Long> out = new java.util.TreeMap<>();
            configs.forEach((r, c) -> out.put(r.name(), Long.parseLong(c.get(TopicConfig.RETENTION_MS_CONFIG).value())));
            return out;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read retention.ms of " + topics + ": " + e.getMessage(), e);
        }
    }
}
