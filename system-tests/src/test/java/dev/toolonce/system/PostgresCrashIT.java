package dev.toolonce.system;

import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 7, "infrastructure faults recover by themselves": the PostgreSQL postmaster killed with SIGKILL
 * mid-load and restarted as {@code ./toolonce up} would, under every service running as its own process.
 * Intents sent before, while PostgreSQL is down (straight to Kafka: the agent's own database is down too)
 * and after it is back must all be answered, with one effect each at the sandbox, and nothing left open.
 * No service is restarted by the test.
 */
class PostgresCrashIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static int status(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private static final Duration SETTLE = Duration.ofMinutes(4);

    @Test
    void postgresKilledMidLoadAndRestartedLosesNothingAndDuplicatesNothing() throws Exception {
        SystemStack stack = SystemStack.get();
        try (CrashLoad load = new CrashLoad("PostgresCrashIT", stack)) {
            load.f.clearFaults();
            load.sendDirect("before", 60);
            load.publishOutbox("before", 60);
            // Mid-load: the executor is still working through the first intents when PostgreSQL dies.
            Instant back;
            try {
                stack.infra.killPostgres();
                // Readiness tells the truth: every service says it cannot work while its database is gone.
                for (String url : List.of(stack.executorUrl, stack.consumerUrl, stack.relayUrl)) {
                    await().atMost(Duration.ofSeconds(30)).until(() -> status(url + "/ready") == 503);
                }
                load.sendDirect("during", 100);
                load.awaitSent(Duration.ofSeconds(60));
                Thread.sleep(3_000); // PostgreSQL stays down a while: intake and dispatch meet a dead database
            } finally {
                stack.infra.startPostgres();
            }
            back = Instant.now();
            for (String url : List.of(stack.executorUrl, stack.consumerUrl, stack.relayUrl)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> status(url + "/ready") == 200);
            }
            load.sendDirect("after", 60);
            load.publishOutbox("after", 60);
            load.awaitSent(Duration.ofSeconds(60));

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
