package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ToolIntent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * docs/protocol.md §19, calls started in intake's transaction: an executor process of its own with two workers and a
 * tool that answers after a second. A call intake plans while a worker is free is claimed in the planning transaction
 * and handed to that worker ({@code toolonce.claims{by=intake}}); calls planned while both workers are busy wait as
 * PLANNED and are claimed by the dispatcher ({@code by=dispatcher}). Either way each call is claimed once, moves
 * PLANNED→STARTED→COMMITTED, and reaches the tool once. With {@code start-at-intake=false} the dispatcher claims all.
 */
class IntakeStartIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private final SystemStack stack = SystemStack.get();
    private final EventCodec codec = new EventCodec();
    private Fixtures f;
    private LoneExecutor lone;

    @BeforeEach
    void setUp() throws Exception {
        f = new Fixtures(stack);
        f.clearFaults();
        f.faults("counter", "{\"latencyMs\":1000}");
    }

    @AfterEach
    void tearDown() throws Exception {
        f.clearFaults();
        f.close();
        if (lone != null) {
            lone.close();
        }
    }

    @Test
    void callsPlannedWhileAWorkerIsFreeStartInIntakesTransactionAndTheRestWaitForTheDispatcher() throws Exception {
        lone = new LoneExecutor(stack, "--toolonce.executor.workers=2");
        // One at a time to an idle executor: each is planned while both workers are free.
        List<ToolIntent> alone = oneAtATime("alone");
        // A reservation finds no worker only while the dispatcher's idle walk holds them (a statement every 200 ms):
        // of three calls at least one is intake's, and most often all three are.
        assertThat(claims("intake")).as("calls planned while workers were free, claimed by intake").isPositive();
        assertThat(claims("intake") + claims("dispatcher")).as("each call claimed once").isEqualTo(3);

        // Ten at once: the two workers are taken by the first calls, the others wait for the dispatcher's claim.
        List<ToolIntent> burst = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ToolIntent intent = f.counter("burst-" + i, "task-burst", String.valueOf(i), 1);
            String id = UUID.randomUUID().toString();
            f.sendTo(lone.topic, intent.recordKey(), codec.write(intent.withMessageId(id)).getBytes(StandardCharsets.UTF_8), id);
            burst.add(intent);
        }
        for (ToolIntent intent : burst) {
            lone.awaitState(scope(intent), WAIT, "COMMITTED");
        }
        assertThat(claims("dispatcher")).as("calls planned while both workers were busy").isPositive();
        assertThat(claims("intake") + claims("dispatcher")).as("each call claimed once").isEqualTo(13);
        List<ToolIntent> all = new ArrayList<>(alone);
        all.addAll(burst);
        assertEachRanOnce(all);
    }

    @Test
    void withStartAtIntakeOffTheDispatcherClaimsEveryCall() throws Exception {
        lone = new LoneExecutor(stack, "--toolonce.executor.workers=2", "--toolonce.executor.start-at-intake=false");
        List<ToolIntent> sent = oneAtATime("off");
        assertThat(claims("intake")).isZero();
        assertThat(claims("dispatcher")).isEqualTo(3);
        assertEachRanOnce(sent);
    }

    /** Three calls of {@code counter}, each sent once the one before it has committed. */
    private List<ToolIntent> oneAtATime(String name) throws Exception {
        List<ToolIntent> sent = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ToolIntent intent = f.counter(name + "-" + i, "task-" + name, String.valueOf(i), 1);
            lone.send(intent);
            lone.awaitState(scope(intent), WAIT, "COMMITTED");
            sent.add(intent);
        }
        return sent;
    }

    /** Each call's history is PLANNED's claim to STARTED and its completion, once; the tool saw one request. */
    private void assertEachRanOnce(List<ToolIntent> intents) throws Exception {
        for (ToolIntent intent : intents) {
            List<String> moves = lone.history(scope(intent)).stream().map(a -> a.get("to_state")).toList();
            assertThat(moves).as("history of %s", intent.idempotencyKey()).containsExactly("STARTED", "COMMITTED");
            JsonNode effect = f.effect(intent.arguments().path("opId").asString());
            assertThat(effect.path("count").asLong()).as("effects of %s", intent.idempotencyKey()).isEqualTo(1);
            assertThat(effect.path("requests").asLong()).as("requests of %s", intent.idempotencyKey()).isEqualTo(1);
        }
    }

    /** {@code toolonce.claims{by=…}} of the executor's counters; 0 until its first claim. */
    private long claims(String by) throws Exception {
        return f.getJson(lone.url + "/executor/stats").path("toolonce.claims{by=" + by + "}").asLong(0L);
    }

    private static CallScope scope(ToolIntent i) {
        return new CallScope(i.tenantId(), i.tool(), i.operation(), i.idempotencyKey());
    }
}
