package dev.toolonce.agent.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CatalogueWaitTest {

    @Test
    void anExecutorNotThereYetIsAskedAgainUntilItAnswers() throws Exception {
        AtomicInteger reads = new AtomicInteger();

        List<String> tools = Catalogue.whenAvailable(() -> {
            if (reads.incrementAndGet() < 3) {
                throw new Catalogue.Unavailable("connection refused", null);
            }
            return List.of("payments_charge");
        }, Duration.ofSeconds(10), Duration.ofMillis(1));

        assertThat(tools).containsExactly("payments_charge");
        assertThat(reads).hasValue(3);
    }

    @Test
    void aRefusalFailsAtOnce() {
        AtomicInteger reads = new AtomicInteger();

        assertThatThrownBy(() -> Catalogue.whenAvailable(() -> {
            reads.incrementAndGet();
            throw new IllegalStateException("the catalogue answered 401 (needs a viewer token)");
        }, Duration.ofSeconds(10), Duration.ofMillis(1))).hasMessageContaining("401");
        assertThat(reads).hasValue(1);
    }

    @Test
    void anExecutorStillAbsentWhenTheWaitIsOverFailsTheStart() {
        AtomicInteger reads = new AtomicInteger();

        assertThatThrownBy(() -> Catalogue.whenAvailable(() -> {
            reads.incrementAndGet();
            throw new Catalogue.Unavailable("connection refused", null);
        }, Duration.ofMillis(50), Duration.ofMillis(5))).isInstanceOf(Catalogue.Unavailable.class);
        assertThat(reads.get()).isGreaterThan(1);
    }
}
