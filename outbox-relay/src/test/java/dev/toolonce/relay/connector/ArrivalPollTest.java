package dev.toolonce.relay.connector;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class ArrivalPollTest {

    final ArrivalQueue<String> queue = new ArrivalQueue<>();
    int debeziumPolls;

    /** Debezium's change event queue with max.batch.size=1 over the arrival queue: at most one event per poll. */
    List<String> debeziumPoll() {
        debeziumPolls++;
        String e = queue.poll();
        return e == null ? List.of() : List.of(e);
    }

    @Test
    void eventsAlreadyQueuedAreDrainedAtOnceUpToTheBatchSize() throws InterruptedException {
        for (int i = 0; i < 5; i++) {
            queue.enqueue("e" + i);
        }
        ArrivalPoll<String> poll = new ArrivalPoll<>(queue, 3, this::debeziumPoll);
        assertThat(poll.next()).containsExactly("e0", "e1", "e2");
        assertThat(poll.next()).containsExactly("e3", "e4");
    }

    @Test
    void aPollThatWaitsReturnsTheEventThatWokeIt() throws Exception {
        ArrivalPoll<String> poll = new ArrivalPoll<>(queue, 100, this::debeziumPoll);
        CompletableFuture<List<String>> batch = CompletableFuture.supplyAsync(() -> {
            try {
                return poll.next();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        queue.enqueue("e1");
        assertThat(batch.get(5, TimeUnit.SECONDS)).containsExactly("e1");
    }

    @Test
    void withNothingArrivingDebeziumsOwnPollRunsOnceSoAStreamingFailureSurfaces() throws InterruptedException {
        ArrivalPoll<String> poll = new ArrivalPoll<>(queue, 100, this::debeziumPoll);
        assertThat(poll.next()).isEmpty();
        assertThat(debeziumPolls).isEqualTo(1);
    }

    @Test
    void recordsThatBypassedTheArrivalQueueStillFlow() throws InterruptedException {
        List<String> elsewhere = new ArrayList<>(List.of("heartbeat"));
        ArrivalPoll<String> poll = new ArrivalPoll<>(queue, 100, () -> {
            List<String> out = List.copyOf(elsewhere);
            elsewhere.clear();
            return out;
        });
        assertThat(poll.next()).as("logged as an ERROR, not lost").containsExactly("heartbeat");
    }
}
