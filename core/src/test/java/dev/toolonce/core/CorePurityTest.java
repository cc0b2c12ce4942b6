package dev.toolonce.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The protocol stays plain Java: no Spring, JDBC or Kafka in {@code core}. */
class CorePurityTest {
    private static final Pattern FORBIDDEN = Pattern.compile(
            "^import\\s+(static\\s+)?(org\\.springframework|java\\.sql|javax\\.sql|org\\.apache\\.kafka|org\\.postgresql)\\b.*",
            Pattern.MULTILINE);

    @Test
    void coreSourcesImportNoFrameworkOrDriver() throws IOException {
        Path main = Path.of("src/main/java");
        List<String> offenders;
        try (Stream<Path> files = Files.walk(main)) {
            offenders = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(CorePurityTest::importsForbidden)
                    .map(Path::toString)
                    .toList();
        }
        assertThat(Files.isDirectory(main.resolve("dev/toolonce/core"))).isTrue();
        assertThat(offenders).as("core files importing Spring/JDBC/Kafka").isEmpty();
    }

    @Test
    void theCheckRecognisesAForbiddenImport() {
        assertThat(FORBIDDEN.matcher("package x;\nimport java.sql.Connection;\n").find()).isTrue();
        assertThat(FORBIDDEN.matcher("package x;\nimport org.springframework.jdbc.core.JdbcTemplate;\n").find()).isTrue();
        assertThat(FORBIDDEN.matcher("package x;\nimport java.util.List;\n").find()).isFalse();
    }

    private static boolean importsForbidden(Path file) {
        try {
            return FORBIDDEN.matcher(Files.readString(file)).find();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
