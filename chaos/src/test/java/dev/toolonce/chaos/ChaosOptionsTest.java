package dev.toolonce.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.chaos.faults.Catalogue;
import dev.toolonce.security.kafka.KafkaClientSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChaosOptionsTest {
    private static final Path REPO = Path.of("/repo");

    @Test
    void defaultsRunEveryFaultTwentyTimes() {
        ChaosOptions o = ChaosOptions.parse(List.of(), REPO);
        assertThat(o.perFault()).isEqualTo(20);
        assertThat(o.faults()).containsExactlyElementsOf(Catalogue.all().keySet());
        assertThat(o.home()).isEqualTo(Path.of("/repo/.local/chaos"));
        assertThat(o.ports().pg()).isEqualTo(22400);
        assertThat(o.jvmOptions()).as("the services run as deployed unless told").isEmpty();
    }

    @Test
    void jvmOptionsAreCollectedInOrderAndOnlyJvmOptionsAreTaken() {
        assertThat(ChaosOptions.parse(List.of("--jvm-option", "-XX:TieredStopAtLevel=1", "--smoke",
                "--jvm-option", "-Dx=y"), REPO).jvmOptions()).containsExactly("-XX:TieredStopAtLevel=1", "-Dx=y");
        assertThatThrownBy(() -> ChaosOptions.parse(List.of("--jvm-option", "--server.port=1"), REPO))
                .hasMessageContaining("--jvm-option takes a -X or -D option, was '--server.port=1'");
        assertThatThrownBy(() -> ChaosOptions.parse(List.of("--jvm-option"), REPO))
                .hasMessageContaining("--jvm-option needs a value");
    }

    @Test
    void smokeIsOneRoundOfTheSmokeFaults() {
        ChaosOptions o = ChaosOptions.parse(List.of("--smoke", "--per-fault", "7"), REPO);
        assertThat(o.perFault()).isEqualTo(1);
        assertThat(o.faults()).containsExactlyElementsOf(Catalogue.smoke());
    }

    @Test
    void selectedFaultsRunInCatalogueOrder() {
        ChaosOptions o = ChaosOptions.parse(List.of("--faults", "zombie,pg-kill", "--unsafe-baseline"), REPO);
        assertThat(o.faults()).containsExactly("pg-kill", "zombie");
        assertThat(o.unsafeBaseline()).isTrue();
    }

    @Test
    void theBaselineDefaultsToTheFaultsTheNaivePatternClaimsToSurvive() {
        assertThat(ChaosOptions.parse(List.of("--unsafe-baseline"), REPO).faults())
                .containsExactlyElementsOf(Catalogue.baseline());
    }

    @Test
    void badOptionsNameWhatIsWrong() {
        assertThatThrownBy(() -> ChaosOptions.parse(List.of("--faults", "meteor"), REPO))
                .hasMessageContaining("unknown fault 'meteor'");
        assertThatThrownBy(() -> ChaosOptions.parse(List.of("--per-fault", "0"), REPO))
                .hasMessageContaining("--per-fault must be a positive integer");
        assertThatThrownBy(() -> ChaosOptions.parse(List.of("--json"), REPO)).hasMessageContaining("--json needs a value");
        assertThatThrownBy(() -> ChaosOptions.parse(List.of("--frobnicate"), REPO)).hasMessageContaining("unknown option");
    }

    @Test
    void theKafkaClientSettingsComeFromKafkaConfigElseFromTheEnvironmentsFile(@TempDir Path dir) throws Exception {
        Path fromEnv = Files.writeString(dir.resolve("env.properties"), "security.protocol=SSL\n");
        Path fromOption = Files.writeString(dir.resolve("opt.properties"), "security.protocol=SASL_SSL\n");
        Map<String, String> env = Map.of(KafkaClientSettings.ENV, fromEnv.toString());

        assertThat(ChaosOptions.parse(List.of(), REPO, Map.of()).kafka()).isSameAs(KafkaClientSettings.none());
        assertThat(ChaosOptions.parse(List.of(), REPO, env).kafka().settings()).containsEntry("security.protocol", "SSL");
        ChaosOptions o = ChaosOptions.parse(List.of("--kafka-config", fromOption.toString()), REPO, env);
        assertThat(o.kafka().settings()).isEqualTo(Map.of("security.protocol", "SASL_SSL"));
        assertThat(o.kafka().file()).contains(fromOption);
        Path refused = Files.writeString(dir.resolve("bad.properties"), "group.id=mine\n");
        assertThatThrownBy(() -> ChaosOptions.parse(List.of("--kafka-config", refused.toString()), REPO, Map.of()))
                .hasMessageContaining("--kafka-config").hasMessageContaining("group.id");
    }
}
