package dev.toolonce.sandbox.faults;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The fault configuration of one tool and the count of faults injected into it. */
final class ToolFaults {

    private volatile FaultConfig config = FaultConfig.NONE;
    private final AtomicInteger failNextLeft = new AtomicInteger();
    private final AtomicInteger failStatusLeft = new AtomicInteger();
    private final AtomicInteger lookupFailStatusLeft = new AtomicInteger();
    private final Map<FaultKind, AtomicLong> injected = new EnumMap<>(FaultKind.class);

    ToolFaults() {
        for (FaultKind kind : FaultKind.values()) {
            injected.put(kind, new AtomicLong());
        }
    }

    FaultConfig config() {
        return config;
    }

    void configure(FaultConfig newConfig) {
        config = newConfig;
        failNextLeft.set(newConfig.failNext());
        failStatusLeft.set(newConfig.failStatusNext());
        lookupFailStatusLeft.set(newConfig.lookupFailStatusNext());
    }

    /** Atomically takes one unit of {@code lookupFailStatusNext}; false when none is left. */
    boolean takeLookupFailStatus() {
        return lookupFailStatusLeft.getAndUpdate(left -> left > 0 ? left - 1 : 0) > 0;
    }

    void clear() {
        configure(FaultConfig.NONE);
        injected.values().forEach(counter -> counter.set(0));
    }

    /** Atomically takes one unit of {@code failNext}; false when none is left. */
    boolean takeFailNext() {
        return failNextLeft.getAndUpdate(left -> left > 0 ? left - 1 : 0) > 0;
    }

    /** Atomically takes one unit of {@code failStatusNext}; false when none is left. */
    boolean takeFailStatus() {
        return failStatusLeft.getAndUpdate(left -> left > 0 ? left - 1 : 0) > 0;
    }

    int failStatusLeft() {
        return failStatusLeft.get();
    }

    int failNextLeft() {
        return failNextLeft.get();
    }

    void count(FaultKind kind) {
        injected.get(kind).incrementAndGet();
    }

    long injected(FaultKind kind) {
        return injected.get(kind).get();
    }
}
