package dev.toolonce.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.toolonce.relay.RelayHarness.Row;
import dev.toolonce.relay.RelayHarness.SourceArgs;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestStack;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The relay starts before the service that owns the outbox has migrated: it creates the slot at
 * once, waits for the publication, and relays the service's rows once it exists — including the
 * case PostgreSQL 15 cannot decode by itself (other writes between slot and publication). While it
 * waits, its readiness is down and says why (the engine's state, the slot nobody streams from).
 */
class RelayLatePublicationIT {

    @Test
    void waitsForThePublicationThenRelaysRowsWrittenBeforeAndAfterItNoticed() throws Exception {
        TestStack stack = TestStack.get();
        String db = stack.freshDatabase("relay_late");
        String slot = "relay_late_" + RelayHarness.unique();
        String topic = stack.freshTopic("relay-late", 1);
        String dlq = stack.freshTopic("relay-late-dlq", 1);
        int port = ServiceProcess.freePort();
        List<SourceArgs> sources = List.of(new SourceArgs("late", db, slot, "late_pub", "late.outbox_event"));
        ServiceProcess relay = RelayHarness.startRelay("relay-late", port, stack.kafkaBootstrap(), dlq, sources);
        try {
            awaitState(port, "WAITING_FOR_PUBLICATION", Duration.ofSeconds(120));
            assertThat(RelayHarness.get(port, "/ready").statusCode()).isEqualTo(503);
            // readiness says why: the engine waits, and its slot exists but nothing streams from it
            JsonNode waiting = await("the source probe has seen the new slot").atMost(Duration.ofSeconds(30))
                    .until(() -> readiness(port), r -> r.at("/components/replicationSlots/details/late/present").asBoolean());
            assertThat(waiting.path("status").asString()).isEqualTo("DOWN");
            assertThat(waiting.at("/components/sourceEngines/status").asString()).isEqualTo("DOWN");
            assertThat(waiting.at("/components/sourceEngines/details/late/state").asString())
                    .isEqualTo("WAITING_FOR_PUBLICATION");
            assertThat(waiting.at("/components/replicationSlots/status").asString()).isEqualTo("DOWN");
            assertThat(waiting.at("/components/replicationSlots/details/late/active").asBoolean()).isFalse();
            assertThat(waiting.at("/components/replicationSlots/details/late/problem").asString())
                    .isEqualTo("nothing streams from replication slot " + slot);
            assertThat(RelayHarness.get(port, "/actuator/health/liveness").statusCode()).isEqualTo(200);

            // Other writes after the slot and before the publication: pgoutput on PostgreSQL 15
            // fails on them with "publication does not exist" unless the relay repairs the slot.
            RelayHarness.execute(db, "CREATE TABLE unrelated(x int); INSERT INTO unrelated VALUES (1), (2)");
            Row early = Row.of(topic, "early", "{\"early\":true}");
            try (var c = RelayHarness.connect(db)) {
                c.setAutoCommit(false);
                try (var s = c.createStatement()) {
                    s.execute(RelayHarness.OUTBOX_DDL.formatted("late", "late_pub"));
                }
                c.commit();
                RelayHarness.insert(c, "late", List.of(early));
            }
            relay.awaitHttpOk("http://127.0.0.1:" + port + "/ready", Duration.ofSeconds(60));
            assertThat(readiness(port).path("status").asString()).isEqualTo("UP");
            Row later = Row.of(topic, "later", "{\"later\":true}");
            RelayHarness.insert(db, "late", List.of(later));

            try (TopicReader reader = new TopicReader(stack.kafkaBootstrap(), topic)) {
                reader.readUntil(s -> RelayIT.ids(s).containsAll(List.of(early.id().toString(), later.id().toString())),
                        Duration.ofSeconds(60));
            }
        } finally {
            relay.stop();
            RelayHarness.dropSlots(db, slot);
        }
    }

    private static JsonNode readiness(int port) throws Exception {
        return JsonMapper.builder().build().readTree(RelayHarness.get(port, "/actuator/health/readiness").body());
    }

    private static void awaitState(int port, String state, Duration timeout) {
        await("relay /ready reports " + state).atMost(timeout)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .ignoreExceptionsInstanceOf(java.io.IOException.class) // not listening yet
                .until(() -> RelayHarness.get(port, "/ready").body(), body -> body.contains(state));
    }
}
