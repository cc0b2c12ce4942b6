package dev.toolonce.system;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 7, "infrastructure faults recover by themselves": the Kafka broker's JVM killed with SIGKILL
 * mid-load and started again on the same ports and log directory. Intents sent before, while the broker is
 * down (through the agent's outbox, which the relay must deliver later, and straight to the topic from a
 * producer that buffers them) and after it is back must all be answered, with one effect each at the
 * sandbox, and nothing left open. No service is restarted by the test.
 */
class KafkaCrashIT {
    private static final Duration SETTLE = Duration.ofMinutes(4);

    @Test
    void kafkaKilledMidLoadAndRestartedLosesNothingAndDuplicatesNothing() throws Exception {
        SystemStack stack = SystemStack.get();
        try (CrashLoad load = new CrashLoad("KafkaCrashIT", stack)) {
            load.f.clearFaults();
            load.sendDirect("before", 60);
            load.awaitSent(Duration.ofSeconds(60)); // the producer knows the topic's partitions before the crash
            load.publishOutbox("before", 60);
            Instant back;
            CompletableFuture<Void> during = null;
            try {
                stack.infra.killKafka();
                during = load.sendDirectInBackground("during", 50); // blocks in send() until the broker is back
                load.publishOutbox("during", 50);
                Thread.sleep(3_000); // the broker stays down a while: relay, executor and consumer lose it
            } finally {
                stack.infra.startKafka();
            }
            back = Instant.now();
            during.get(3, TimeUnit.MINUTES);
            load.sendDirect("after", 60);
            load.publishOutbox("after", 60);
            load.awaitSent(Duration.ofMinutes(2));

            try {
                load.awaitAllAnswered(SETTLE);
                load.awaitQuiescence(Duration.ofSeconds(90));
            } finally {
                load.report(back); // the figures, also when the waits above timed out
            }
            load.verify();
        }
    }
}
