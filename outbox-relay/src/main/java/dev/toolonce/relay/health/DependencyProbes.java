package dev.toolonce.relay.health;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.toolonce.relay.config.RelayProperties.Source;
import dev.toolonce.relay.config.SourceConnections;

/**
 * Whether the relay's dependencies answer: each source database ({@code SELECT 1} on a kept
 * connection, reopened after a failure) and the Kafka cluster (a metadata request). Probed by
 * {@link #probeAll()} from one watchdog thread; read by the health indicators of {@link RelayHealth}
 * (and so {@code /ready}) from any thread. A
 * dependency counts as unreachable until its first probe answered. Changes are logged once.
 */
public final class DependencyProbes {

    private static final Logger log = LoggerFactory.getLogger(DependencyProbes.class);
    static final int TIMEOUT_SECONDS = 3;

    private final List<Source> sources;
    private final Admin admin;
    private final Map<String, Connection> connections = new ConcurrentHashMap<>();
    private final Map<String, Boolean> databases = new ConcurrentHashMap<>();
    private volatile boolean kafka;

    public DependencyProbes(List<Source> sources, Admin admin) {
        this.sources = List.copyOf(sources);
        this.admin = admin;
    }

    /** Probes every dependency once; each probe catches its own failures. */
    public void probeAll() {
        for (Source source : sources) {
            record(source.name() + " database", databases.put(source.name(), probeDatabase(source)),
                    databases.get(source.name()));
        }
        boolean before = kafka;
        kafka = probeKafka();
        record("Kafka", before, kafka);
    }

    /** Whether the last probe of the source's database answered. */
    public boolean databaseReachable(String sourceName) {
        return databases.getOrDefault(sourceName, false);
    }

    /** Whether the last metadata request to Kafka answered with at least one broker. */
    public boolean kafkaReachable() {
        return kafka;
    }

    /** Closes the kept connections. */
    public void close() {
        connections.values().forEach(DependencyProbes::closeQuietly);
        connections.clear();
    }

    private boolean probeDatabase(Source source) {
        try {
            Connection c = connections.get(source.name());
            if (c == null || c.isClosed()) {
                c = SourceConnections.open(source, TIMEOUT_SECONDS);
                connections.put(source.name(), c);
            }
            if (c.isValid(TIMEOUT_SECONDS)) {
                return true;
            }
        } catch (SQLException | RuntimeException e) {
            log.debug("Source '{}': database probe failed", source.name(), e);
        }
        Connection broken = connections.remove(source.name());
        if (broken != null) {
            closeQuietly(broken);
        }
        return false;
    }

    private boolean probeKafka() {
        try {
            return !admin.describeCluster(new DescribeClusterOptions().timeoutMs(TIMEOUT_SECONDS * 1000))
                    .nodes().get(TIMEOUT_SECONDS + 1L, TimeUnit.SECONDS).isEmpty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            log.debug("Kafka probe failed", e);
            return false;
        }
    }

    private static void record(String what, Boolean before, Boolean now) {
        if (now.equals(before)) {
            return;
        }
        if (now) {
            log.info("{} is reachable", what);
        } else {
            log.warn("{} is UNREACHABLE; the relay is not ready until it answers again", what);
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException | RuntimeException ignored) {
            // discarded either way
        }
    }
}
