package dev.toolonce.relay.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class ArrivalQueueTest {

    @Test
    void keepsEventsInOrderAndCountsThem() {
        ArrivalQueue<String> queue = new ArrivalQueue<>();
        queue.enqueue("a");
        queue.enqueue("b");
        assertThat(queue.size()).isEqualTo(2);
        assertThat(queue.poll()).isEqualTo("a");
        assertThat(queue.poll()).isEqualTo("b");
        assertThat(queue.poll()).isNull();
        assertThat(queue.size()).isZero();
    }

    @Test
    void aWaitingPollWakesUpWhenAnEventArrives() throws Exception {
        ArrivalQueue<String> queue = new ArrivalQueue<>();
        CompletableFuture<Boolean> woke = CompletableFuture.supplyAsync(() -> {
            try {
                return queue.awaitEvents(Duration.ofMinutes(1));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        queue.enqueue("a");
        assertThat(woke.get(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aWaitEndsEmptyHandedWhenNothingArrives() throws Exception {
        assertThat(new ArrivalQueue<String>().awaitEvents(Duration.ofMillis(5))).isFalse();
    }

    @Test
    void anInterruptedWaitSaysSoSoTheEngineCanStop() {
        ArrivalQueue<String> queue = new ArrivalQueue<>();
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> queue.awaitEvents(Duration.ofMinutes(1))).isInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).isFalse();
    }
}
