package dev.toolonce.relay;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.toolonce.relay.RelayHarness.Row;

/**
 * Inserts one outbox row per transaction on its own thread, about every {@code pause}, and keeps
 * inserting through a database crash: a row whose commit failed is retried (same id) on a new
 * connection until it commits; a duplicate-key answer means an earlier attempt did commit (its
 * acknowledgement was lost with the connection). Records every committed id with its commit time.
 */
final class OutboxWriter implements AutoCloseable {

    private static final String UNIQUE_VIOLATION = "23505";

    private final String db;
    private final String schema;
    private final String topic;
    private final String prefix;
    private final Duration pause;
    private final Map<String, Long> committedAtNanos = new ConcurrentHashMap<>();
    private final AtomicInteger failedAttempts = new AtomicInteger();
    private final AtomicLong lastFailureNanos = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable crashed;

    OutboxWriter(String db, String schema, String topic, String prefix, Duration pause) {
        this.db = db;
        this.schema = schema;
        this.topic = topic;
        this.prefix = prefix;
        this.pause = pause;
        this.thread = new Thread(this::loop, "outbox-writer-" + prefix);
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        Connection c = null;
        int seq = 0;
        try {
            while (running) {
                Row row = Row.of(topic, prefix + "-" + seq, "{\"seq\":" + seq + ",\"writer\":\"" + prefix + "\"}");
                boolean done = false;
                while (running && !done) {
                    try {
                        if (c == null) {
                            c = RelayHarness.connect(db + "?connectTimeout=2&socketTimeout=5");
                        }
                        RelayHarness.insert(c, schema, List.of(row));
                        done = true;
                    } catch (SQLException e) {
                        if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
                            done = true; // the earlier attempt committed
                            continue;
                        }
                        failedAttempts.incrementAndGet();
                        lastFailureNanos.set(System.nanoTime());
                        closeQuietly(c);
                        c = null;
                        Thread.sleep(100);
                    }
                }
                if (!done) {
                    break; // stopped while retrying: the row may or may not have committed; not counted
                }
                committedAtNanos.put(row.id().toString(), System.nanoTime());
                seq++;
                Thread.sleep(pause.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable e) {
            crashed = e;
        } finally {
            closeQuietly(c);
        }
    }

    /** Ids committed so far with their commit times ({@link System#nanoTime()}). */
    Map<String, Long> committed() {
        return Map.copyOf(committedAtNanos);
    }

    int failedAttempts() {
        return failedAttempts.get();
    }

    /** The commit time of the first row committed after {@code nanos}, or -1. */
    long firstCommitAfter(long nanos) {
        return committedAtNanos.values().stream().filter(t -> t > nanos).mapToLong(Long::longValue).min().orElse(-1);
    }

    /** The id of the first row committed after {@code nanos}, or null. */
    String firstIdCommittedAfter(long nanos) {
        return committedAtNanos.entrySet().stream().filter(e -> e.getValue() > nanos)
                .min(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
    }

    /** Stops writing; returns the ids committed (a row still being retried is not counted). */
    Map<String, Long> stop() throws InterruptedException {
        running = false;
        thread.join(30_000);
        if (crashed != null) {
            throw new IllegalStateException("writer " + prefix + " crashed", crashed);
        }
        return committed();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(30_000);
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // broken anyway
            }
        }
    }
}
