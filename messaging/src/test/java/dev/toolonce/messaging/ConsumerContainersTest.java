package dev.toolonce.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.ContainerProperties.AckMode;

class ConsumerContainersTest {

    @Test
    void processedOffsetsAreCommittedOncePerIntervalWithoutWaiting() {
        ContainerProperties container = new ContainerProperties("toolonce.tool-intents");

        ConsumerContainers.commitOffsetsWithoutWaiting(container, Duration.ofSeconds(1));

        assertThat(container.getAckMode()).isEqualTo(AckMode.TIME);
        assertThat(container.getAckTime()).isEqualTo(1_000L);
        assertThat(container.isSyncCommits()).isFalse();
    }

    @Test
    void aZeroIntervalCommitsAfterEveryBatch() {
        ContainerProperties container = new ContainerProperties("toolonce.tool-results");

        ConsumerContainers.commitOffsetsWithoutWaiting(container, Duration.ZERO);

        assertThat(container.getAckMode()).isEqualTo(AckMode.BATCH);
        assertThat(container.isSyncCommits()).isFalse();
    }

    @Test
    void aNegativeIntervalIsRefused() {
        ContainerProperties container = new ContainerProperties("toolonce.tool-results");

        assertThatThrownBy(() -> ConsumerContainers.commitOffsetsWithoutWaiting(container, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-0.001S");
    }
}
