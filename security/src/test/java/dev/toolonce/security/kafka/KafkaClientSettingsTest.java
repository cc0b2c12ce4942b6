package dev.toolonce.security.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaClientSettingsTest {
    private static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required "
            + "username=\"bench\" password=\"s3cr=t;\";";

    @TempDir
    Path dir;

    @Test
    void aFileOfSecuritySettingsIsReadAsItIsAndTheClientsOwnSettingsWin() throws Exception {
        Path file = write("""
                security.protocol=SASL_SSL
                sasl.mechanism=SCRAM-SHA-512
                sasl.jaas.config=%s
                ssl.truststore.location=/etc/kafka/truststore.p12
                linger.ms=20
                """.formatted(JAAS));

        KafkaClientSettings s = KafkaClientSettings.load(file);
        Properties own = new Properties();
        own.put("linger.ms", "5");
        own.put("acks", "all");
        Properties client = s.with(own);

        assertThat(s.file()).contains(file);
        assertThat(client).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sasl.jaas.config", JAAS).containsEntry("ssl.truststore.location", "/etc/kafka/truststore.p12")
                .containsEntry("linger.ms", "5").containsEntry("acks", "all").hasSize(6);
        assertThat(own).hasSize(2); // a new Properties, the caller's untouched
    }

    @Test
    void everySettingTheToolsSetThemselvesIsRefusedNamingTheFileAndTheKey() throws Exception {
        for (String key : KafkaClientSettings.REFUSED) {
            Path file = write("security.protocol=SSL\n" + key + "=x\n");
            assertThatThrownBy(() -> KafkaClientSettings.load(file)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(file.toString()).hasMessageContaining(" sets " + key + ",");
        }
        assertThat(KafkaClientSettings.REFUSED).contains("bootstrap.servers", "acks", "enable.idempotence", "group.id",
                "enable.auto.commit", "key.serializer", "value.deserializer");
        assertThatThrownBy(() -> KafkaClientSettings.load(write("bootstrap.servers=h:1\n")))
                .hasMessageContaining("with --kafka");
    }

    @Test
    void theEnvironmentVariableNamesTheFileAndWithoutItThereAreNoSettings() throws Exception {
        Path file = write("security.protocol=SSL\n");

        assertThat(KafkaClientSettings.fromEnvironment(Map.of(KafkaClientSettings.ENV, file.toString())).settings())
                .isEqualTo(Map.of("security.protocol", "SSL"));
        assertThat(KafkaClientSettings.fromEnvironment(Map.of())).isSameAs(KafkaClientSettings.none());
        assertThat(KafkaClientSettings.fromEnvironment(Map.of(KafkaClientSettings.ENV, " "))).isSameAs(KafkaClientSettings.none());
        assertThat(KafkaClientSettings.none().settings()).isEmpty();
        assertThat(KafkaClientSettings.none().file()).isEmpty();
        Properties own = new Properties();
        own.put("acks", "all");
        assertThat(KafkaClientSettings.none().with(own)).isEqualTo(own);
    }

    @Test
    void aMissingFileIsRefusedNamingIt() {
        Path missing = dir.resolve("nope.properties");
        assertThatThrownBy(() -> KafkaClientSettings.fromEnvironment(Map.of(KafkaClientSettings.ENV, missing.toString())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(missing.toString());
    }

    @Test
    void itsDescriptionNamesTheKeysButNeverAValue() throws Exception {
        KafkaClientSettings s = KafkaClientSettings.load(write("sasl.jaas.config=" + JAAS + "\n"));
        assertThat(s.toString()).contains("sasl.jaas.config").doesNotContain("s3cr=t");
    }

    private Path write(String content) throws Exception {
        return Files.writeString(Files.createTempFile(dir, "kafka", ".properties"), content);
    }
}
