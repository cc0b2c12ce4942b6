package dev.toolonce.relay.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

import dev.toolonce.relay.config.RelayProperties.Source;

class RelayPropertiesTest {

    static Source source(String name, String slot) {
        return new Source(name, "jdbc:postgresql://127.0.0.1:25432/toolonce", null, null, slot,
                "toolonce_executor_outbox", "executor.outbox_event");
    }

    static RelayProperties props(List<Source> sources, Duration poll) {
        return new RelayProperties(sources, "127.0.0.1:29092", poll, Duration.ofMillis(20), 2048,
                Duration.ofSeconds(1), Duration.ofSeconds(5), "toolonce.relay.dlq", DataSize.ofMegabytes(1), Duration.ofMillis(500),
                Duration.ofSeconds(2), null);
    }

    @Test
    void defaultsUserAndPassword() {
        Source s = source("executor", "toolonce_executor_slot");
        assertThat(s.username()).isEqualTo("postgres");
        assertThat(s.password()).isEmpty();
        assertThat(s.schema()).isEqualTo("executor");
        assertThat(s.tableName()).isEqualTo("outbox_event");
        assertThat(s.location()).isEqualTo(new JdbcLocation("127.0.0.1", 25432, "toolonce"));
    }

    @Test
    void acceptsAValidConfiguration() {
        RelayProperties p = props(List.of(source("executor", "a_slot"), source("agent", "b_slot")), Duration.ofMillis(10));
        assertThat(p.sources()).hasSize(2);
    }

    @Test
    void rejectsAPollIntervalAboveTheLimitNamingBothProperties() {
        assertThatThrownBy(() -> props(List.of(source("executor", "a_slot")), Duration.ofMillis(50)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("toolonce.relay.poll-interval is 50ms")
                .hasMessageContaining("max-poll-interval");
    }

    @Test
    void rejectsANegativeOrHourLongOffsetFlushInterval() {
        for (Duration bad : List.of(Duration.ofMillis(-1), Duration.ofMinutes(2))) {
            assertThatThrownBy(() -> new RelayProperties(List.of(source("executor", "a_slot")), "127.0.0.1:29092",
                    Duration.ofMillis(2), Duration.ofMillis(20), 2048, bad, Duration.ofSeconds(5), "toolonce.relay.dlq",
                    DataSize.ofMegabytes(1), Duration.ofMillis(500), Duration.ofSeconds(2), null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("toolonce.relay.offset-flush-interval");
        }
    }

    @Test
    void rejectsNoSources() {
        assertThatThrownBy(() -> props(List.of(), Duration.ofMillis(10)))
                .hasMessageContaining("toolonce.relay.sources is empty");
    }

    @Test
    void rejectsDuplicateNamesAndSlotsWithTheirIndex() {
        assertThatThrownBy(() -> props(List.of(source("executor", "a_slot"), source("executor", "b_slot")),
                Duration.ofMillis(10)))
                .hasMessageContaining("toolonce.relay.sources[1].name 'executor' is used by another source");
        assertThatThrownBy(() -> props(List.of(source("executor", "a_slot"), source("agent", "a_slot")),
                Duration.ofMillis(10)))
                .hasMessageContaining("toolonce.relay.sources[1].slot 'a_slot' is used by another source");
    }

    @Test
    void rejectsBadSlotTableAndUrl() {
        assertThatThrownBy(() -> props(List.of(source("executor", "Bad-Slot")), Duration.ofMillis(10)))
                .hasMessageContaining("toolonce.relay.sources[0].slot 'Bad-Slot' must match");
        Source noSchema = new Source("x", "jdbc:postgresql://h:1/db", null, null, "s", "p", "outbox_event");
        assertThatThrownBy(() -> props(List.of(noSchema), Duration.ofMillis(10)))
                .hasMessageContaining("toolonce.relay.sources[0].table 'outbox_event' must be schema.table");
        Source badUrl = new Source("x", "jdbc:mysql://h:1/db", null, null, "s", "p", "a.b");
        assertThatThrownBy(() -> props(List.of(badUrl), Duration.ofMillis(10)))
                .hasMessageContaining("toolonce.relay.sources[0].jdbc-url 'jdbc:mysql://h:1/db' must look like");
    }

    @Test
    void jdbcLocationDefaultsThePortAndIgnoresParameters() {
        assertThat(JdbcLocation.parse("jdbc:postgresql://db.example/app?sslmode=disable", "x"))
                .isEqualTo(new JdbcLocation("db.example", 5432, "app"));
        assertThatThrownBy(() -> JdbcLocation.parse("jdbc:postgresql://h1:1,h2:2/app", "x"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    static RelayProperties withBackoff(Duration min, Duration max) {
        return new RelayProperties(List.of(source("executor", "a_slot")), "127.0.0.1:29092", Duration.ofMillis(10),
                Duration.ofMillis(20), 2048, Duration.ofSeconds(1), Duration.ofSeconds(5), "toolonce.relay.dlq",
                DataSize.ofMegabytes(1), min, max, null);
    }

    @Test
    void capsTheRestartBackoffSoTheRelayResumesWithinSecondsOfARecoveredDependency() {
        assertThat(withBackoff(Duration.ofMillis(500), Duration.ofSeconds(5)).restartBackoffMax())
                .isEqualTo(Duration.ofSeconds(5));
        assertThatThrownBy(() -> withBackoff(Duration.ofSeconds(1), Duration.ofSeconds(30)))
                .hasMessageContaining("toolonce.relay.restart-backoff-max is 30000ms: set at most 5s");
        assertThatThrownBy(() -> withBackoff(Duration.ofSeconds(3), Duration.ofSeconds(2)))
                .hasMessageContaining("toolonce.relay.restart-backoff-min is 3000ms but restart-backoff-max is 2000ms");
    }

    @Test
    void validTopicNames() {
        assertThat(RelayProperties.validTopic("toolonce.tool-intents")).isTrue();
        assertThat(RelayProperties.validTopic("bad topic!")).isFalse();
        assertThat(RelayProperties.validTopic("..")).isFalse();
        assertThat(RelayProperties.validTopic("")).isFalse();
    }
}
