package dev.toolonce.executor.execution;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;

class DispatcherLifecycleTest {

    /**
     * Spring stops the highest phase first: intake's listener containers must stop, their last batch handed to the
     * workers it set aside, before the dispatcher closes its pool (docs/protocol.md §6, "Claimed by intake").
     */
    @Test
    void theDispatcherStartsBeforeIntakeAndStopsAfterIt() {
        Dispatcher dispatcher = new Dispatcher(null, null, null, null, new Dispatcher.Settings(1, 1,
                Duration.ofSeconds(60), Duration.ofSeconds(5), Duration.ofMillis(200), true), null, null);

        assertThat(dispatcher.getPhase()).isLessThan(AbstractMessageListenerContainer.DEFAULT_PHASE);
    }
}
