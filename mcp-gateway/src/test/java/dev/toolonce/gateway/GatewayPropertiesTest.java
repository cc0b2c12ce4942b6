package dev.toolonce.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GatewayPropertiesTest {
    @TempDir
    Path dir;

    private static GatewayProperties with(String token, Path file) {
        return new GatewayProperties("http://127.0.0.1:18081", token, file, Duration.ofMinutes(2), List.of(),
                Duration.ofSeconds(30), Duration.ofSeconds(1), List.of());
    }

    @Test
    void theTokenIsReadFromItsFileWithoutTheLineEnd() throws Exception {
        Path file = Files.writeString(dir.resolve("catalogue.token"), "tot_abc_secret\n");

        GatewayProperties p = with(null, file);

        assertThat(p.catalogueToken()).isEqualTo("tot_abc_secret");
        assertThat(p.toString()).doesNotContain("tot_abc_secret").contains("catalogue.token");
    }

    @Test
    void aTokenGivenTwiceAMissingOrEmptyFileAndNoTokenAreRefusedNamingTheProperty() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.token"), " \n");

        assertThatThrownBy(() -> with("tot_x", empty)).hasMessageContaining("both set");
        assertThatThrownBy(() -> with(null, empty)).hasMessageContaining("catalogue-token-file=" + empty + " is empty");
        assertThatThrownBy(() -> with(null, dir.resolve("absent"))).hasMessageContaining("cannot read it");
        assertThatThrownBy(() -> with(" ", null)).hasMessageContaining("toolonce.gateway.catalogue-token");
    }
}
