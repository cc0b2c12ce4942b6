package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * End to end, with every service running: the relay process killed with SIGKILL between two batches and
 * restarted loses no event: every intent of both batches is executed and answered, duplicates on the topics
 * are absorbed by the inboxes, and the counter tool shows one effect per operation. (The relay's own
 * {@code RelayKillIT}, in outbox-relay, kills the relay alone and counts rows on the topic.)
 */
class RelayKilledEndToEndIT {

    @Test
    void relayKilledBetweenTwoBatchesLosesNothing() throws Exception {
        SystemStack stack = SystemStack.get();
        try (Fixtures f = new Fixtures(stack); ResultWatcher results = f.results()) {
            List<String> batch1 = publish(f, "a", 40);
            results.awaitRecords(w -> batch1.stream().allMatch(w.byIntent::containsKey), Duration.ofSeconds(90));
            assertThat(batch1).allMatch(results.byIntent::containsKey);

            stack.relay.kill9();
            List<String> batch2 = publish(f, "b", 40); // written while no relay runs
            stack.startRelay();

            results.awaitRecords(w -> batch2.stream().allMatch(w.byIntent::containsKey), Duration.ofSeconds(90));
            assertThat(batch2).allMatch(results.byIntent::containsKey);
            for (int i = 0; i < 40; i++) {
                assertThat(f.effect(f.tenant + ":a" + i).path("count").asLong()).as("effects of a%d", i).isEqualTo(1);
                assertThat(f.effect(f.tenant + ":b" + i).path("count").asLong()).as("effects of b%d", i).isEqualTo(1);
            }
        }
    }

    private static List<String> publish(Fixtures f, String prefix, int n) throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(f.publish(f.counter(prefix + i, "kill-" + prefix, Integer.toString(i), i)));
        }
        return ids;
    }
}
