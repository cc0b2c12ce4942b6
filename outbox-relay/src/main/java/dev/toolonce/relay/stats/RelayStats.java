package dev.toolonce.relay.stats;

import java.util.concurrent.atomic.LongAdder;

import org.springframework.stereotype.Component;

/**
 * Counters and the commit→ack latency histogram of this relay process, across all sources.
 * Thread-safe; recorded from Kafka producer callbacks.
 */
@Component
public class RelayStats {

    private final LongAdder published = new LongAdder();
    private final LongAdder deadLettered = new LongAdder();
    private final LatencyHistogram latency = new LatencyHistogram();

    /**
     * A record was acknowledged by its topic.
     *
     * @param commitToAckMicros ack time minus the source transaction's commit time
     */
    public void published(long commitToAckMicros) {
        published.increment();
        latency.record(commitToAckMicros);
    }

    /** A record whose commit time does not measure the relay (a snapshot row) was acknowledged. */
    public void publishedUnmeasured() {
        published.increment();
    }

    /** A record was acknowledged by the dead-letter topic. */
    public void deadLettered() {
        deadLettered.increment();
    }

    public long publishedCount() {
        return published.sum();
    }

    public long deadLetteredCount() {
        return deadLettered.sum();
    }

    public LatencyHistogram.Snapshot latency() {
        return latency.snapshot();
    }

    /** Clears the latency histogram (the counters keep counting). */
    public void resetLatency() {
        latency.reset();
    }
}
