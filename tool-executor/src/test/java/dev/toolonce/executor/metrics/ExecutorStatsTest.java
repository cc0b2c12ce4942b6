package dev.toolonce.executor.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class ExecutorStatsTest {

    /** The alarms an operator alerts on with increase() exist at 0 before their first event. */
    @Test
    void theAlarmsAreAtZeroFromTheStart() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ExecutorStats stats = new ExecutorStats(meters);

        assertThat(meters.get("toolonce.duplicates.alarm").tag("source", "late_applied").counter().count()).isZero();
        assertThat(meters.get("toolonce.guards.lost").tag("guard", "fence").counter().count()).isZero();
        assertThat(meters.get("toolonce.guards.lost").tag("guard", "pre_send").counter().count()).isZero();
        stats.duplicateAlarm();
        assertThat(stats.snapshot()).containsEntry("toolonce.duplicates.alarm{source=late_applied}", 1L)
                .containsEntry("toolonce.guards.lost{guard=pre_send}", 0L);
    }

    /** Dead letters are counted once, by the shared error path after each send; /executor/stats shows that count. */
    @Test
    void theStatsShowTheSharedDeadLetterCountsAndNoCountOfTheirOwn() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ExecutorStats stats = new ExecutorStats(meters);
        meters.counter("toolonce.consumer.dead_lettered", "consumer", "intake", "code", "UNSIGNED_RECORD").increment(2);
        meters.counter("toolonce.consumer.dead_lettered", "consumer", "task-holds", "code", "SCHEMA_INVALID").increment();
        stats.lostGuard();

        assertThat(stats.snapshot())
                .containsEntry("toolonce.consumer.dead_lettered{consumer=intake,code=UNSIGNED_RECORD}", 2L)
                .containsEntry("toolonce.consumer.dead_lettered{consumer=task-holds,code=SCHEMA_INVALID}", 1L)
                .containsEntry("toolonce.guards.lost{guard=fence}", 1L)
                .doesNotContainKey("toolonce.intake.dead_lettered{code=any}");
        assertThat(meters.find("toolonce.intake.dead_lettered").counters()).isEmpty();
    }
}
