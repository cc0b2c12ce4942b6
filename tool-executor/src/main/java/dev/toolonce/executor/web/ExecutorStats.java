package dev.toolonce.executor.web;

import dev.toolonce.core.call.CallState;
import dev.toolonce.executor.intake.Intake;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Counters since start-up, served at {@code GET /executor/stats}. Thread-safe. */
public final class ExecutorStats {
    private final Map<Intake.Disposition, AtomicLong> intake = new EnumMap<>(Intake.Disposition.class);
    private final Map<CallState, AtomicLong> finished = new EnumMap<>(CallState.class);
    private final AtomicLong deadLettered = new AtomicLong();
    private final AtomicLong lostGuards = new AtomicLong();

    public ExecutorStats() {
        for (Intake.Disposition d : Intake.Disposition.values()) {
            intake.put(d, new AtomicLong());
        }
        for (CallState s : CallState.values()) {
            finished.put(s, new AtomicLong());
        }
    }

    public void count(Intake.Disposition d) {
        intake.get(d).incrementAndGet();
    }

    public void finished(CallState s) {
        finished.get(s).incrementAndGet();
    }

    public void deadLettered() {
        deadLettered.incrementAndGet();
    }

    public void lostGuard() {
        lostGuards.incrementAndGet();
    }

    /** A JSON-friendly snapshot. */
    public Map<String, Object> snapshot() {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Long> in = new LinkedHashMap<>();
        intake.forEach((k, v) -> in.put(k.name(), v.get()));
        Map<String, Long> fin = new LinkedHashMap<>();
        finished.forEach((k, v) -> fin.put(k.name(), v.get()));
        out.put("intake", in);
        out.put("finished", fin);
        out.put("deadLettered", deadLettered.get());
        out.put("lostGuards", lostGuards.get());
        return out;
    }
}
