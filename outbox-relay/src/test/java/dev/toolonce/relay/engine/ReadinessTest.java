package dev.toolonce.relay.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.toolonce.relay.engine.ReadinessController.Readiness;

class ReadinessTest {

    static SourceStatus source(boolean slot, boolean running, boolean db) {
        return new SourceStatus("s", "slot", slot, running, db, running ? SourceState.RUNNING : SourceState.BACKING_OFF,
                null);
    }

    @Test
    void readyOnlyWhenKafkaAndEverySourceCanWork() {
        assertThat(Readiness.of(true, List.of(source(true, true, true), source(true, true, true))).ready()).isTrue();
        assertThat(Readiness.of(false, List.of(source(true, true, true))).ready()).isFalse();
        assertThat(Readiness.of(true, List.of(source(true, true, true), source(true, true, false))).ready()).isFalse();
        assertThat(Readiness.of(true, List.of(source(true, false, true))).ready()).isFalse();
        assertThat(Readiness.of(true, List.of(source(false, true, true))).ready()).isFalse();
        assertThat(Readiness.of(true, List.of()).ready()).isFalse();
    }
}
