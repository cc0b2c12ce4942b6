package dev.toolonce.executor.metrics;

import dev.toolonce.core.call.CallState;
import dev.toolonce.executor.intake.Intake;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Counters for every intake disposition, transition, lost guard, duplicate alarm, reconciliation and
 * review, and timers of tool calls and intake batches, registered with Micrometer
 * ({@code /actuator/prometheus}, {@code /actuator/metrics/toolonce.*}); the counters are summarised at
 * {@code GET /executor/stats}. Thread-safe.
 */
public final class ExecutorStats {
    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private final Timer intakeBatch;

    public ExecutorStats(MeterRegistry registry) {
        this.registry = registry;
        this.intakeBatch = Timer.builder("toolonce.intake.batch").publishPercentileHistogram()
                .description("one intake poll batch, its transaction included").register(registry);
        // The alarms exist from the start at 0, so that an alert on increase() sees the first one too: a series
        // that appears at 1 has no increase to show.
        counter("toolonce.duplicates.alarm", "source", "late_applied");
        counter("toolonce.guards.lost", "guard", "fence");
        counter("toolonce.guards.lost", "guard", "pre_send");
    }

    /** One intent taken in; a rejection is also counted by its code ({@code toolonce.rejections}). */
    public void count(Intake.Taken t) {
        counter("toolonce.intake", "disposition", t.disposition().name()).increment();
        if (t.code() != null) {
            counter("toolonce.rejections", "code", t.code()).increment();
        }
    }

    /**
     * Every state change, and the seeds' figures derived from it: arrivals in review by the state they came from,
     * and compensations by outcome (a call leaving {@code COMPENSATING}).
     */
    public void transition(CallState from, CallState to) {
        counter("toolonce.transitions", "transition", from + ">" + to).increment();
        if (to == CallState.NEEDS_REVIEW && from != CallState.NEEDS_REVIEW) {
            counter("toolonce.review.arrivals", "from", from.name()).increment();
        }
        if (from == CallState.COMPENSATING && to != CallState.COMPENSATING) {
            counter("toolonce.compensations", "outcome", to.name()).increment();
        }
    }

    /**
     * An unknown outcome settled: the time from the call becoming UNKNOWN to the state reconciliation gave it
     * ({@code COMMITTED}, {@code FAILED_RETRYABLE} when nothing was applied, {@code NEEDS_REVIEW}, ...), by that
     * state, with a histogram.
     */
    public void recovered(CallState to, Duration took) {
        timers.computeIfAbsent("recovery|" + to, k -> Timer.builder("toolonce.recovery").tag("to", to.name())
                .description("UNKNOWN -> final state, through reconciliation")
                .publishPercentileHistogram().register(registry)).record(took);
    }

    public void lostGuard() {
        counter("toolonce.guards.lost", "guard", "fence").increment();
    }

    public void duplicateAlarm() {
        counter("toolonce.duplicates.alarm", "source", "late_applied").increment();
    }

    public void reconciliation(String outcome) {
        counter("toolonce.reconciliations", "outcome", outcome).increment();
    }

    public void review(String action) {
        counter("toolonce.reviews", "action", action).increment();
    }

    /** A tool reported success but named no usable object (see {@code Completion}). */
    public void appliedWithoutExternalId(String tool) {
        counter("toolonce.applied.without_external_id", "tool", tool).increment();
    }

    public void fencedBeforeSend() {
        counter("toolonce.guards.lost", "guard", "pre_send").increment();
    }

    /**
     * One tool call's duration (request sent to outcome classified), by tool, operation and outcome kind
     * ({@code Applied}, {@code Retryable}, {@code Rejected}, {@code Indeterminate}, ...), with a histogram so that
     * Prometheus can compute percentiles across instances.
     */
    public void toolCall(String tool, String operation, String outcome, long nanos) {
        timers.computeIfAbsent(tool + "|" + operation + "|" + outcome, k -> Timer.builder("toolonce.tool.call")
                .tag("tool", tool).tag("operation", operation).tag("outcome", outcome)
                .publishPercentileHistogram().register(registry)).record(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Calls claimed for a worker, by who claimed them ({@code toolonce.claims{by=…}}): {@code intake} in the
     * transaction that planned them ({@code Dispatcher#reserve}), {@code dispatcher} by its own claim.
     */
    public void claimed(String by, int calls) {
        if (calls > 0) {
            counter("toolonce.claims", "by", by).increment(calls);
        }
    }

    /** One intake poll batch recorded (its transaction included), with a histogram. */
    public void intakeBatch(long nanos) {
        intakeBatch.record(nanos, TimeUnit.NANOSECONDS);
    }

    private Counter counter(String name, String tag, String value) {
        return counters.computeIfAbsent(name + "|" + tag + "=" + value,
                k -> Counter.builder(name).tag(tag, value).register(registry));
    }

    /**
     * Every counter as {@code name{tag=value} -> count}, sorted; with the dead letters of the executor's consumers as
     * the shared error path counts them, after each send ({@code toolonce.consumer.dead_lettered{consumer=…,code=…}}).
     */
    public Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        counters.forEach((k, c) -> out.put(k.replace("|", "{") + "}", (long) c.count()));
        registry.find("toolonce.consumer.dead_lettered").counters().forEach(c -> out.merge(
                "toolonce.consumer.dead_lettered{consumer=" + c.getId().getTag("consumer") + ",code="
                        + c.getId().getTag("code") + "}", (long) c.count(), Long::sum));
        return out;
    }
}
