package dev.toolonce.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.security.kafka.KafkaClientSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchOptionsTest {
    private static final Map<String, String> ENV = Map.of("PG_URL", "jdbc:postgresql://h:1/db",
            "KAFKA_BOOTSTRAP", "h:2", "RELAY_URL", "http://h:3", "TOOLONCE_HOME", "/x");

    @Test
    void defaultsAreTheFullBenchAgainstTheEnvironmentsStack() {
        BenchOptions o = BenchOptions.parse(List.of(), ENV);
        assertThat(o.phases()).isEqualTo(EnumSet.allOf(Phase.class));
        assertThat(o.burst()).isEqualTo(20_000);
        assertThat(o.loads()).containsExactly(250.0, 500.0, 1000.0, 1200.0, 2000.0);
        assertThat(o.relayRates()).containsExactly(1000.0, 5000.0);
        assertThat(o.backlog()).isEqualTo(50_000);
        assertThat(o.clients()).isEqualTo(16);
        assertThat(o.warmup()).as("a first bench is warmed before it is timed").isEqualTo(30_000);
        assertThat(o.target().pgUrl()).isEqualTo("jdbc:postgresql://h:1/db");
        assertThat(o.target().runDir()).isEqualTo(Path.of("/x", "run"));
        assertThat(o.compare()).as("nothing to compare with unless asked").isNull();
        assertThat(BenchOptions.parse(List.of("--compare", "before.json"), ENV).compare()).isEqualTo(Path.of("before.json"));
    }

    @Test
    void smokeShrinksEverySizeAndLaterOptionsStillApply() {
        BenchOptions o = BenchOptions.parse(List.of("--burst", "42", "--smoke", "--only", "e2e", "--pid", "kafka=7"), ENV);
        assertThat(o.burst()).isEqualTo(42);
        assertThat(o.seconds()).isEqualTo(Duration.ofSeconds(3));
        assertThat(o.backlog()).isEqualTo(2_000);
        assertThat(o.warmup()).isEqualTo(100);
        assertThat(o.phases()).containsExactly(Phase.BURST, Phase.LOADS);
        assertThat(BenchOptions.parse(List.of("--warmup", "0"), ENV).warmup()).as("0 skips the warm-up").isZero();
        assertThat(o.target().pids()).containsEntry("kafka", 7L);
    }

    @Test
    void wrongOptionsAreNamed() {
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--only", "relay,warp"), ENV)).hasMessageContaining("'warp'");
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--loads", "250,x"), ENV)).hasMessageContaining("--loads");
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--burst", "0"), ENV)).hasMessageContaining("--burst");
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--fast"), ENV)).hasMessageContaining("--fast");
    }

    @Test
    void everyKafkaClientGetsTheSettingsOfKafkaConfigOrOfTheEnvironmentsFile(@TempDir Path dir) throws Exception {
        Path fromEnv = Files.writeString(dir.resolve("env.properties"), "security.protocol=SSL\n");
        Path fromOption = Files.writeString(dir.resolve("opt.properties"), "security.protocol=SASL_SSL\nlinger.ms=9\n");
        Map<String, String> env = new java.util.HashMap<>(ENV);
        env.put(KafkaClientSettings.ENV, fromEnv.toString());
        Properties own = new Properties();
        own.put("linger.ms", "5");

        assertThat(BenchOptions.parse(List.of(), ENV).target().kafkaClient(new Properties()))
                .isEqualTo(Map.of("bootstrap.servers", "h:2"));
        assertThat(BenchOptions.parse(List.of(), env).target().kafkaClient(own))
                .containsEntry("security.protocol", "SSL").containsEntry("bootstrap.servers", "h:2");
        assertThat(BenchOptions.parse(List.of("--kafka-config", fromOption.toString(), "--kafka", "k:9"), env).target()
                .kafkaClient(own)).isEqualTo(Map.of("security.protocol", "SASL_SSL", "linger.ms", "5", "bootstrap.servers", "k:9"));
        Path refused = Files.writeString(dir.resolve("bad.properties"), "acks=1\n");
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--kafka-config", refused.toString()), ENV))
                .hasMessageContaining("--kafka-config").hasMessageContaining("acks");
    }
}
